import { expect, test } from "bun:test";
import { join } from "node:path";
import { compileSourceFile } from "../../src/workspace/compile-source-file.ts";
import {
  loadRuleset,
  type Finding,
  type JsonObject,
  type JsonValue,
  type RuleExplanation,
} from "../../src/browser/rule-cascade.ts";
import { resolvableRules, type ClientManifest, type ManifestRule } from "../../src/explorer/client-manifest.ts";
import { resolutionWords, statusWords, unmatchedWords, wordsText } from "../../src/explorer/explanation-text.ts";
import { PROJECT_ROOT } from "../support/run-cli.ts";

/** The shipped example, as the page holds it: its client manifest loaded into the browser module. */
const compiled = compileSourceFile(join(PROJECT_ROOT, "rules", "acme-payments-transfers.ruleset.yaml"));
if (!compiled.ok) throw new Error(JSON.stringify(compiled.problems));
const manifest = (compiled.compiled.bundle.manifests as JsonObject).client as unknown as ClientManifest;
const ruleset = await loadRuleset(manifest as unknown as JsonValue);
const ruleOf = (id: string): ManifestRule | undefined => manifest.rules.find((rule) => rule.id === id);

const transfer = (changes: JsonObject = {}): JsonObject => ({
  entity: "Transfer",
  operation: "create",
  data: { amount: 30000, currency: "EUR", reference: "Invoice 42", beneficiary: { country: "IR" } },
  ctx: { now: "2026-03-02T09:30:00Z" },
  ...changes,
});

function explained(request: JsonObject) {
  const result = ruleset.evaluate(request, "client", { explain: "full" });
  const explanation = result.explanation!;
  const said = (id: string): string => {
    const entry = explanation.rules.find((candidate) => candidate.rule === id)!;
    return wordsText(statusWords(entry, ruleOf(id), request));
  };
  return { result, explanation, said };
}

test("each status of the example's rules is said in words: fired with its code, passed, when false, not selected and why", () => {
  const { said } = explained(transfer());
  expect(said("transfer.amount.limit")).toBe("fired: its assertion failed, finding `ACME-PAY-005`");
  expect(said("transfer.amount.positive")).toBe("passed: its assertion holds");
  expect(said("transfer.purpose-detail.required")).toBe("its condition (when) is false: the rule did not run");
  expect(said("transfer.update.locked-after-approval")).toBe("not selected: it runs on `update`, not on `create`");
  expect(said("transfer.fee.compute")).toBe("fired: computed `/fee`");
  expect(said("transfer.bic.show")).toBe("fired: set the state of `/beneficiary/bic`");
  // A rule run per bound field says which field its trees are of (which one is the engine's choice).
  expect(said("money.amount.valid")).toMatch(/^passed: its assertion holds · for `\/\w+`$/);

  const onBlur = explained(transfer({ trigger: "blur" }));
  expect(onBlur.said("transfer.amount.limit")).toBe("not selected: it runs on `submit`, not on `blur`");
  const inSchedule = explained(transfer({ view: { section: "schedule" } }));
  expect(inSchedule.said("transfer.amount.limit")).toBe(
    "not selected: its place, `transfers › new-transfer › amount`, is outside the view",
  );
  const withoutClock = explained(transfer({ ctx: {} }));
  expect(withoutClock.said("transfer.execution-date.default")).toStartWith("error: ");
  expect(withoutClock.said("transfer.execution-date.default")).toEndWith(" (the rule fails closed)");
});

test("a misspelt entity or operation is said with the closest declared name", () => {
  const entity = transfer({ entity: "Transfre" });
  expect(unmatchedWords(explained(entity).explanation.unmatched!, entity).map(wordsText)).toEqual([
    "No rule of this ruleset targets `Transfre`: did you mean `Transfer`?",
  ]);
  const operation = transfer({ operation: "creat" });
  expect(unmatchedWords(explained(operation).explanation.unmatched!, operation).map(wordsText)).toEqual([
    "No rule of `Transfer` runs on `creat`: did you mean `create`?",
  ]);
  expect(unmatchedWords({ entity: { given: "Zzz" } }, transfer()).map(wordsText)).toEqual([
    "No rule of this ruleset targets `Zzz`.",
  ]);
});

test("each resolution's fate is said: applied, or the reason it was not", () => {
  const fates = (resolutions: JsonValue, actor: JsonObject = { id: "u-1", roles: [] }): string[] => {
    const { result, explanation } = explained(transfer({ actor, resolutions }));
    return explanation.resolutions.map((resolution) =>
      wordsText(resolutionWords(resolution, ruleOf(String(resolution.rule)), result.findings)),
    );
  };
  expect(
    fates([{ rule: "transfer.amount.limit", type: "accept-risk", justification: "Board decision" }], {
      id: "u-2",
      roles: ["treasury-manager"],
    }),
  ).toEqual(["`transfer.amount.limit` `accept-risk`: the finding is accepted and no longer blocks"]);
  expect(fates([{ rule: "transfer.amount.limit", type: "accept-risk", justification: "Board decision" }])).toEqual([
    "`transfer.amount.limit` `accept-risk`: only `treasury-manager` or `cfo` may accept this risk, and the actor has none of these roles",
  ]);
  expect(fates([{ rule: "transfer.amount.limit", type: "accept-risk" }], { id: "u-2", roles: ["cfo"] })).toEqual([
    "`transfer.amount.limit` `accept-risk`: accepting this risk needs a justification",
  ]);
  expect(fates([{ rule: "transfer.amount.limit", type: "acknowledge" }])).toEqual([
    "`transfer.amount.limit` `acknowledge`: the rule's finding is resolved by `accept-risk`, not `acknowledge`",
  ]);
  expect(fates([{ rule: "transfer.reference.present", type: "acknowledge" }])).toEqual([
    "`transfer.reference.present` `acknowledge`: the rule produced no finding, so there is nothing to resolve",
  ]);
  expect(fates([{ rule: "transfer.nope", type: "acknowledge" }])).toEqual([
    "`transfer.nope` `acknowledge`: no rule of this manifest has this id",
  ]);
});

test("a hand-made entry: reasons the example cannot show, and an unknown reason is still said", () => {
  const entry = (fields: Partial<RuleExplanation>): RuleExplanation => ({
    rule: "r",
    kind: "validation",
    status: "not-selected",
    ...fields,
  });
  const rule: ManifestRule = { id: "r", kind: "action", target: { entity: "Order" }, operations: ["create"] };
  const request = { entity: "Transfer", operation: "create" };
  expect(wordsText(statusWords(entry({ because: "disabled" }), rule, request))).toBe(
    "not selected: the rule is disabled",
  );
  expect(wordsText(statusWords(entry({ because: "entity" }), rule, request))).toBe(
    "not selected: it is about `Order`, the request about `Transfer`",
  );
  expect(wordsText(statusWords(entry({ kind: "action", because: "channel" }), rule, request))).toBe(
    "not selected: actions run on the server only",
  );
  expect(wordsText(statusWords(entry({ kind: "action", because: "decision" }), rule, request))).toBe(
    "not run: actions run only when the decision is allow",
  );
  expect(
    wordsText(statusWords(entry({ kind: "x-ml-hint", because: "kind" }), { ...rule, kind: "x-ml-hint" }, request)),
  ).toBe("not selected: its kind, `x-ml-hint`, is an extension no runtime runs");
  expect(
    wordsText(
      resolutionWords({ rule: "r", type: "acknowledge", applied: false, reason: "not-blocking" }, undefined, []),
    ),
  ).toBe("`r` `acknowledge`: the rule's finding does not block, so there is nothing to resolve");
  // A reason a later engine may add is still said.
  expect(
    wordsText(statusWords(entry({ because: "something-new" } as unknown as Partial<RuleExplanation>), rule, request)),
  ).toBe("not selected: `something-new`");
  const finding = { rule: "r", resolution: "none", blocking: true } as Finding;
  expect(
    wordsText(
      resolutionWords({ rule: "r", type: "acknowledge", applied: false, reason: "type-not-accepted" }, undefined, [
        finding,
      ]),
    ),
  ).toBe("`r` `acknowledge`: the rule's finding cannot be resolved at all");
  expect(
    wordsText(resolutionWords({ rule: 7, type: null, applied: false, reason: "rule-unknown" }, undefined, [])),
  ).toBe("`7` `null`: no rule of this manifest has this id");
});

test("the resolutions offered are the example's resolvable client rules, in manifest order", () => {
  expect(resolvableRules(manifest).map(({ rule, type }) => `${type} ${rule.id}`)).toEqual([
    "accept-risk transfer.amount.limit",
    "acknowledge transfer.reference.present",
    "acknowledge transfer.invoices.total",
  ]);
});
