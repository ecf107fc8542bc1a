import type { PlanCondition, PlanScalar } from "../engine/plan/plan-condition.ts";
import { PlanNotTranslatableError } from "./plan-not-translatable.ts";

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * A constant a database can hold as it is: a finite number, a boolean, or a string of whole
 * Unicode characters (a lone UTF-16 surrogate has no UTF-8 form: drivers replace it, and the
 * query would compare with something else).
 */
export function checkedScalar(value: PlanScalar, node: PlanCondition): PlanScalar {
  if (typeof value === "number" && !Number.isFinite(value))
    throw new PlanNotTranslatableError(`the number ${value} is not a JSON number`, node);
  if (typeof value === "string") checkedText(value, "the string", node);
  return value;
}

/** Refuses text with a lone surrogate; `what` names it in the message. */
export function checkedText(text: string, what: string, node: PlanCondition): string {
  if (LONE_SURROGATE.test(text))
    throw new PlanNotTranslatableError(
      `${what} ${JSON.stringify(text)} holds a lone UTF-16 surrogate, which no database text can`,
      node,
    );
  return text;
}
