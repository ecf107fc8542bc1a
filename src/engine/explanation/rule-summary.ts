import type { WordedRule } from "./explanation.ts";
import { wordsText } from "./explanation-words.ts";
import { ruleWords, shownForWords } from "./rule-status-wording.ts";
import type { ExplanationContext } from "./wording-context.ts";

/**
 * The `summary` an explained rule carries: why it has its status, in the words the explorer shows
 * beside it and the command line prints (ruleWords), as text. The engine says it knowing the
 * request, the result and the manifest's rules, as the explorer does, so the two read the same.
 * `statusSaid`: the words of its status alone, already said for another entry of the rule with
 * that status (the item or field shown is added to them).
 */
export function ruleSummary(entry: WordedRule, context: ExplanationContext, statusSaid?: string): string {
  if (statusSaid === undefined) return wordsText(ruleWords(entry, context));
  return entry.field === undefined ? statusSaid : statusSaid + wordsText(shownForWords(entry.field));
}
