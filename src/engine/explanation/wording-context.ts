import type { Place } from "../evaluation/request-shape.ts";
import type { EvaluationResult } from "../evaluation/evaluation-result.ts";
import type { JsonObject, JsonValue } from "../value/json-value.ts";

/**
 * What the wording reads of a rule as its manifest holds it (specification section 3): enough to
 * say what it targets, when it runs, what it produces and who may resolve its finding. A client
 * manifest's rules are such as they are.
 */
export interface RuleFacts {
  readonly id: string;
  readonly kind: string;
  readonly target: { readonly entity?: string; readonly type?: string } & Place;
  readonly operations: readonly string[];
  /** Client moments; `submit` when absent. */
  readonly triggers?: readonly string[];
  /** The rule's condition, said when it is false. */
  readonly when?: JsonValue;
  /** The JSON Pointer of the list a rule runs per item of. */
  readonly forEach?: string;
  readonly finding?: { readonly code: string };
  readonly assign?: readonly { readonly field: string }[];
  readonly effects?: readonly { readonly field: string }[];
  /** `required`: a warning blocks until acknowledged. */
  readonly acknowledgement?: string;
  /** Who may accept an error's risk, and whether a justification is needed (`required`, the default, or `none`). */
  readonly acceptance?: {
    readonly allowed?: boolean;
    readonly roles?: readonly string[];
    readonly justification?: string;
  };
}

/**
 * What a reader knows beside an explanation. Every part is optional: without the request its
 * names are not quoted, without the rules what a rule targets is not said, without the result
 * what a rule produced is not named. The words are the same, only less precise.
 */
export interface ExplanationContext {
  /** The request the explanation is of. */
  readonly request?: JsonObject;
  /** The result the explanation is part of. */
  readonly result?: Pick<EvaluationResult, "findings" | "effects">;
  /** The manifest's rules by id. */
  readonly rules?: ReadonlyMap<string, RuleFacts>;
}

/** The rules of a manifest (as JSON, already loaded, so of the shape the specification gives) by id. */
export function ruleFactsById(manifest: JsonValue | { readonly rules: readonly RuleFacts[] }): Map<string, RuleFacts> {
  const rules = typeof manifest === "object" && manifest !== null && "rules" in manifest ? manifest.rules : [];
  const facts = new Map<string, RuleFacts>();
  if (!Array.isArray(rules)) return facts;
  for (const rule of rules as unknown as readonly RuleFacts[])
    if (typeof rule?.id === "string") facts.set(rule.id, rule);
  return facts;
}
