import { expect, test } from "bun:test";
import { decisionWords, summaryWords } from "../../../src/engine/explanation/decision-wording.ts";
import { wordsText } from "../../../src/engine/explanation/explanation-words.ts";
import type { Finding } from "../../../src/engine/evaluation/evaluation-result.ts";
import type { RuleExplanation } from "../../../src/engine/explanation/explanation.ts";
import { explained, transfer } from "./example-transfer.ts";

test("a decision says the rules whose findings block it, or that none does", () => {
  expect(wordsText(decisionWords(explained(transfer()).result))).toBe(
    "blocked by the finding of transfer.amount.limit",
  );
  const finding = (rule: string, blocking: boolean): Finding => ({ rule, blocking }) as Finding;
  expect(wordsText(decisionWords({ findings: [finding("a", false)] }))).toBe("no finding blocks");
  expect(wordsText(decisionWords({ findings: [finding("a", true), finding("a", true), finding("b", true)] }))).toBe(
    "blocked by the findings of a and b",
  );
});

test("the counts of each status, what did something first", () => {
  expect(wordsText(summaryWords(explained(transfer()).result.explanation!))).toMatch(
    /^\d+ rules: \d+ fired, \d+ passed, \d+ when false, \d+ not selected$/,
  );
  const rule = (status: RuleExplanation["status"]): RuleExplanation => ({
    rule: "r",
    kind: "validation",
    status,
    summary: "",
  });
  expect(wordsText(summaryWords({ rules: [rule("not-selected"), rule("error")] }))).toBe(
    "2 rules: 1 error, 1 not selected",
  );
  expect(wordsText(summaryWords({ rules: [rule("passed")] }))).toBe("1 rule: 1 passed");
  expect(wordsText(summaryWords({ rules: [] }))).toBe("0 rules");
});
