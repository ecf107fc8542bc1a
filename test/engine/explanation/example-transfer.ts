import { join } from "node:path";
import {
  loadRuleset,
  type EvaluationResult,
  type JsonObject,
  type JsonValue,
} from "../../../src/browser/rule-cascade.ts";
import { wordsText } from "../../../src/engine/explanation/explanation-words.ts";
import { ruleWords } from "../../../src/engine/explanation/rule-status-wording.ts";
import { ruleFactsById, type ExplanationContext } from "../../../src/engine/explanation/wording-context.ts";
import { compileSourceFile } from "../../../src/workspace/compile-source-file.ts";
import { PROJECT_ROOT } from "../../support/run-cli.ts";

/**
 * The shipped example as the explorer holds it: its client manifest loaded into the browser
 * module, evaluated with a full explanation, and the context the explorer words it with.
 */
const compiled = compileSourceFile(join(PROJECT_ROOT, "rules", "acme-payments-transfers.ruleset.yaml"));
if (!compiled.ok) throw new Error(JSON.stringify(compiled.problems));
export const clientManifest = (compiled.compiled.bundle.manifests as JsonObject).client as JsonObject;
const ruleset = await loadRuleset(clientManifest as JsonValue);
export const exampleRules = ruleFactsById(clientManifest);

/** A large transfer to a sanctioned country, with `changes` to its members. */
export const transfer = (changes: JsonObject = {}): JsonObject => ({
  entity: "Transfer",
  operation: "create",
  data: { amount: 30000, currency: "EUR", reference: "Invoice 42", beneficiary: { country: "IR" } },
  ctx: { now: "2026-03-02T09:30:00Z" },
  ...changes,
});

export interface Explained {
  readonly result: EvaluationResult;
  readonly context: ExplanationContext;
  /** What the explanation says of a rule, as plain text. */
  said(id: string): string;
}

export function explained(request: JsonObject): Explained {
  const result = ruleset.evaluate(request, "client", { explain: "full" });
  const context: ExplanationContext = { request, result, rules: exampleRules };
  const said = (id: string): string => {
    const entry = result.explanation!.rules.find((candidate) => candidate.rule === id);
    if (entry === undefined) throw new Error(`no rule ${id} in the explanation`);
    return wordsText(ruleWords(entry, context));
  };
  return { result, context, said };
}
