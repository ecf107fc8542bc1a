import { expect, test } from "bun:test";
import { conformanceOperators } from "../../../src/engine/conformance-operators.ts";
import type { EvaluationResult } from "../../../src/engine/evaluation/evaluation-result.ts";
import { decisionWords, summaryWords } from "../../../src/engine/explanation/decision-wording.ts";
import { explanationText } from "../../../src/engine/explanation/explanation-text.ts";
import { wordsText, type Words } from "../../../src/engine/explanation/explanation-words.ts";
import {
  resolutionLabel,
  resolutionNameWords,
  resolutionReasonWords,
} from "../../../src/engine/explanation/resolution-wording.ts";
import { ruleWords, statusLabel } from "../../../src/engine/explanation/rule-status-wording.ts";
import { unmatchedWords } from "../../../src/engine/explanation/unmatched-wording.ts";
import { ruleFactsById, type ExplanationContext } from "../../../src/engine/explanation/wording-context.ts";
import { EngineSession } from "../../../src/protocol/engine-session.ts";
import { answeredGoldenCases } from "../../support/golden-evaluation-requests.ts";

/**
 * Every golden evaluation, explained in full and worded with what the explorer knows (the request,
 * the result, the manifest's rules): each status, each reason a rule was not selected and each
 * resolution's fate has a phrase of its own that names what it can, and the command line's text
 * holds exactly the phrases the explorer's views show (both call these functions).
 */
interface Worded {
  readonly name: string;
  readonly result: EvaluationResult;
  readonly context: ExplanationContext;
  /** The same request explained in `rules` mode. */
  readonly rulesResult: EvaluationResult;
}

const session = new EngineSession({ operators: conformanceOperators });
const worded: Worded[] = answeredGoldenCases().map((c) => {
  const explain = (mode: string): EvaluationResult =>
    JSON.parse(
      session.handleLine(
        JSON.stringify({ command: "evaluate", ...c.source, channel: c.channel, request: c.request, explain: mode }),
      )!,
    ).result as EvaluationResult;
  const result = explain("full");
  return {
    name: c.name,
    result,
    context: { request: c.request, result, rules: ruleFactsById(c.manifest) },
    rulesResult: explain("rules"),
  };
});

/** Every phrase of an evaluation, with what it is of: `status reason` or `resolution reason`. */
function phrases({ result, context }: Worded): { of: string; words: Words }[] {
  const explanation = result.explanation!;
  return [
    { of: "decision", words: decisionWords(result) },
    { of: "summary", words: summaryWords(explanation) },
    ...unmatchedWords(explanation.unmatched ?? {}, context).map((words) => ({ of: "unmatched", words })),
    ...explanation.resolutions.map((resolution) => ({
      of: `resolution ${resolution.applied ? "applied" : resolution.reason}`,
      words: resolutionReasonWords(resolution, context),
    })),
    ...explanation.rules.map((entry) => ({
      of: `${entry.status} ${typeof entry.because === "string" ? entry.because : entry.kind}`,
      words: ruleWords(entry, context),
    })),
  ];
}

test("the golden evaluations have a phrase for each status, each reason a rule was not selected and each resolution's fate", () => {
  expect(worded.length).toBeGreaterThan(100);
  const covered = new Set(worded.flatMap((evaluation) => phrases(evaluation).map(({ of }) => of)));
  expect([...covered].sort()).toEqual(
    expect.arrayContaining([
      "decision",
      "summary",
      "unmatched",
      "error validation",
      "fired validation",
      "fired compute",
      "fired state",
      "fired action",
      "passed validation",
      "passed compute",
      "passed state",
      "when-false validation",
      ...["disabled", "entity", "operation", "enforcement", "trigger", "view", "decision"].map(
        (reason) => `not-selected ${reason}`,
      ),
      "resolution applied",
      ...["no-finding", "not-blocking", "type-not-accepted", "justification-missing", "role-not-allowed"].map(
        (reason) => `resolution ${reason}`,
      ),
    ]),
  );
});

test("knowing the request, the result and the rules, no phrase falls back to an unnamed request or an unknown reason", () => {
  const vague = worded.flatMap((evaluation) =>
    phrases(evaluation)
      .map(({ words }) => wordsText(words))
      .filter((text) => /the request's|the engine's reason|^$/.test(text))
      .map((text) => `${evaluation.name}: ${text}`),
  );
  expect(vague).toEqual([]);
});

test("every explained rule's summary, in both modes, is the explorer's sentence for it", () => {
  const differing: string[] = [];
  for (const { name, result, context, rulesResult } of worded)
    for (const explainedResult of [result, rulesResult]) {
      const explorerContext = { ...context, result: explainedResult };
      for (const entry of explainedResult.explanation!.rules) {
        const sentence = wordsText(ruleWords(entry, explorerContext));
        if (entry.summary !== sentence) differing.push(`${name} ${entry.rule}: ${entry.summary} / ${sentence}`);
      }
    }
  expect(differing).toEqual([]);
  const summaries = new Set(worded.flatMap(({ result }) => result.explanation!.rules.map((entry) => entry.summary)));
  expect(summaries.size).toBeGreaterThan(50);
});

test("the command line's text holds exactly the phrases the explorer shows", () => {
  for (const { name, result, context } of worded) {
    const lines = explanationText(result, context).split("\n");
    const explanation = result.explanation!;
    const missing = [
      `: ${result.decision} (${wordsText(decisionWords(result))})`,
      ...(explanation.rules.length > 1 ? [wordsText(summaryWords(explanation))] : []),
      ...unmatchedWords(explanation.unmatched ?? {}, context).map(wordsText),
      ...explanation.resolutions.map(
        (resolution) =>
          `resolution ${wordsText(resolutionNameWords(resolution))}, ${resolutionLabel(resolution)}: ${wordsText(resolutionReasonWords(resolution, context))}`,
      ),
      ...explanation.rules.map(
        (entry) =>
          `${statusLabel(entry.status)} ${entry.rule} (${entry.kind}): ${wordsText(ruleWords(entry, context))}`,
      ),
    ].filter((phrase) => !lines.some((line) => line.replace(/ {2,}/g, " ").includes(phrase)));
    expect({ name, missing }).toEqual({ name, missing: [] });
  }
});
