import type { JsonObject, JsonValue, RuleExplanation } from "../browser/rule-cascade.ts";
import type { ManifestRule } from "./client-manifest.ts";
import type { Words } from "./explanation-text.ts";

/**
 * A validation rule run per item of a list (`forEach`) or per field bound to its type passes when
 * it runs on none: its assertion was never evaluated, so "its assertion holds" would say what did
 * not happen. A full explanation shows it: no item or field shown, the assertion skipped. Undefined
 * for any other entry. The list is read in the request (a compute rule could have changed it, so
 * its state is said only as the request gave it).
 */
export function noItemWords(
  entry: RuleExplanation,
  rule: ManifestRule | undefined,
  request: JsonObject,
): Words | undefined {
  if (entry.kind !== "validation" || entry.field !== undefined || entry.assert?.skipped !== true) return undefined;
  if (rule?.forEach !== undefined) {
    const tokens = pointerTokens(rule.forEach);
    const list = valueAt(request.data, tokens);
    const path = { code: ["data", ...tokens].join(".") };
    if (list === undefined) return ["passed: it ran on no item — ", path, " is missing"];
    if (list === null) return ["passed: it ran on no item — ", path, " is null"];
    if (Array.isArray(list) && list.length === 0) return ["passed: it ran on no item — ", path, " is empty"];
    return ["passed: it ran on no item"];
  }
  if (rule?.target.type !== undefined) {
    const entity = typeof request.entity === "string" ? request.entity : "the request's entity";
    return [
      "passed: it ran on no field — no field of ",
      { code: entity },
      " has the type ",
      { code: rule.target.type },
    ];
  }
  return ["passed: it ran on no item or field"];
}

/** `/invoices/0/lines` → `["invoices", "0", "lines"]` (RFC 6901: `~1` is `/`, then `~0` is `~`). */
function pointerTokens(pointer: string): string[] {
  return pointer === ""
    ? []
    : pointer
        .slice(1)
        .split("/")
        .map((token) => token.replaceAll("~1", "/").replaceAll("~0", "~"));
}

/** The value at a path of member names and item indexes; undefined where a member is missing. */
function valueAt(value: JsonValue | undefined, tokens: readonly string[]): JsonValue | undefined {
  let current = value;
  for (const token of tokens) {
    if (Array.isArray(current)) current = current[Number(token)];
    else if (typeof current === "object" && current !== null)
      current = Object.hasOwn(current, token) ? current[token] : undefined;
    else return undefined;
  }
  return current;
}
