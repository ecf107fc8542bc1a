import { expect, test } from "bun:test";
import type { Finding } from "../../../src/engine/evaluation/evaluation-result.ts";
import type { ResolutionExplanation } from "../../../src/engine/explanation/explanation.ts";
import { wordsText } from "../../../src/engine/explanation/explanation-words.ts";
import {
  acceptanceWords,
  findingResolutionWords,
  resolutionLabel,
  resolutionNameWords,
  resolutionReasonWords,
} from "../../../src/engine/explanation/resolution-wording.ts";
import type { JsonObject, JsonValue } from "../../../src/engine/value/json-value.ts";
import { exampleRules, explained, transfer } from "./example-transfer.ts";

/** Each resolution of the example's request: its label, which it is, and what became of it. */
function fates(resolutions: JsonValue, actor: JsonObject = { id: "u-1", roles: [] }): string[] {
  const { result, context } = explained(transfer({ actor, resolutions }));
  return result.explanation!.resolutions.map(
    (resolution) =>
      `${resolutionLabel(resolution)} ${wordsText(resolutionNameWords(resolution))}: ${wordsText(resolutionReasonWords(resolution, context))}`,
  );
}

test("each resolution's fate is said: applied, or the reason it was not", () => {
  expect(
    fates([{ rule: "transfer.amount.limit", type: "accept-risk", justification: "Board decision" }], {
      id: "u-2",
      roles: ["treasury-manager"],
    }),
  ).toEqual(["applied accept-risk of transfer.amount.limit: the finding is accepted and no longer blocks"]);
  expect(fates([{ rule: "transfer.amount.limit", type: "accept-risk", justification: "Board decision" }])).toEqual([
    "not applied accept-risk of transfer.amount.limit: only treasury-manager or cfo may accept this risk, and the actor has none of these roles",
  ]);
  expect(fates([{ rule: "transfer.amount.limit", type: "accept-risk" }], { id: "u-2", roles: ["cfo"] })).toEqual([
    "not applied accept-risk of transfer.amount.limit: accepting this risk needs a justification",
  ]);
  expect(fates([{ rule: "transfer.amount.limit", type: "acknowledge" }])).toEqual([
    "not applied acknowledge of transfer.amount.limit: the rule's finding is resolved by accept-risk, not acknowledge",
  ]);
  expect(fates([{ rule: "transfer.reference.present", type: "acknowledge" }])).toEqual([
    "not applied acknowledge of transfer.reference.present: the rule produced no finding, so there is nothing to resolve",
  ]);
  expect(fates([{ rule: "transfer.nope", type: "acknowledge" }])).toEqual([
    "not applied acknowledge of transfer.nope: no rule of this manifest has this id",
  ]);
});

const refused = (reason: ResolutionExplanation["reason"], rule: JsonValue = "r"): ResolutionExplanation => ({
  rule,
  type: "acknowledge",
  applied: false,
  reason,
});
const reason = (resolution: ResolutionExplanation, findings: Finding[] = []): string =>
  wordsText(resolutionReasonWords(resolution, { result: { findings, effects: [] } }));

test("reasons the example cannot show, and what is said without the finding or the rule", () => {
  expect(reason(refused("not-blocking"))).toBe("the rule's finding does not block, so there is nothing to resolve");
  const unresolvable = { rule: "r", resolution: "none", blocking: true } as Finding;
  expect(reason(refused("type-not-accepted"), [unresolvable])).toBe("the rule's finding cannot be resolved at all");
  expect(reason(refused("type-not-accepted"))).toBe("the rule's finding is not resolved by acknowledge");
  expect(reason(refused("role-not-allowed"))).toBe("the actor has no role that may accept this risk");
  const acceptable = { rule: "r", resolution: "accept-risk", blocking: true, acceptableBy: ["cfo"] } as Finding;
  expect(reason(refused("role-not-allowed"), [acceptable])).toBe(
    "only cfo may accept this risk, and the actor has none of these roles",
  );
  expect(reason(refused(undefined))).toBe("not applied");
  expect(reason(refused("a-new-reason" as ResolutionExplanation["reason"]))).toBe(
    "the engine's reason is a-new-reason",
  );
  // What the request gave is quoted as it was, a string as it is and anything else as JSON.
  expect(wordsText(resolutionNameWords({ rule: 7, type: null, applied: false, reason: "rule-unknown" }))).toBe(
    "null of 7",
  );
});

test("who may accept a risk, and how a rule's finding may be resolved (the explorer's rule cards)", () => {
  expect(wordsText(acceptanceWords([]))).toBe("any actor may accept this risk");
  expect(wordsText(acceptanceWords(["a", "b", "c"]))).toBe("only a, b or c may accept this risk");
  const words = (id: string): string | undefined => {
    const found = findingResolutionWords(exampleRules.get(id)!);
    return found === undefined ? undefined : wordsText(found);
  };
  expect(words("transfer.amount.limit")).toBe(
    "only treasury-manager or cfo may accept this risk, with a justification",
  );
  expect(words("transfer.reference.present")).toBe("it blocks until acknowledged");
  expect(words("transfer.amount.positive")).toBeUndefined();
  expect(
    wordsText(
      findingResolutionWords({
        id: "r",
        kind: "validation",
        target: {},
        operations: [],
        acknowledgement: "required",
        acceptance: { allowed: true, justification: "none" },
      })!,
    ),
  ).toBe("it blocks until acknowledged; any actor may accept this risk");
});
