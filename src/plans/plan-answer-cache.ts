import type { LoadedRuleset } from "../engine/bundle/loaded-ruleset.ts";

/** Answers kept per ruleset: a list screen asks the same plan again and again. */
export const MOST_PLAN_ANSWERS = 256;

/**
 * The answers of plan requests already made, by their request text, per loaded ruleset (a plan is
 * a function of the two alone: a reload that changes the ruleset makes another LoadedRuleset, and
 * its answers start afresh). At most 256 per ruleset, the least recently used going first, since a
 * plan of a wide ruleset costs tenths of a second.
 */
export class PlanAnswerCache<Answer> {
  private readonly byRuleset = new WeakMap<LoadedRuleset, Map<string, Answer>>();

  get(ruleset: LoadedRuleset, request: string): Answer | undefined {
    const answers = this.byRuleset.get(ruleset);
    const answer = answers?.get(request);
    if (answer !== undefined) {
      // Most recently used last: a Map keeps insertion order.
      answers!.delete(request);
      answers!.set(request, answer);
    }
    return answer;
  }

  set(ruleset: LoadedRuleset, request: string, answer: Answer): void {
    let answers = this.byRuleset.get(ruleset);
    if (answers === undefined) this.byRuleset.set(ruleset, (answers = new Map()));
    answers.set(request, answer);
    if (answers.size > MOST_PLAN_ANSWERS) answers.delete(answers.keys().next().value!);
  }
}
