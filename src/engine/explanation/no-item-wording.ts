import { unescapePointerToken } from "../value/json-pointer-token.ts";
import { valueAtPath } from "../value/json-access.ts";
import { code, named, type Words } from "./explanation-words.ts";
import type { WordedRule } from "./explanation.ts";
import type { ExplanationContext } from "./wording-context.ts";

/**
 * A validation rule run per item of a list (`forEach`) or per field bound to its type passes when
 * it runs on none: its assertion was never evaluated, so "its assertion holds" would say what did
 * not happen. A full explanation shows it: no item or field shown, the assertion skipped.
 * Undefined for any other entry. The list is read in the request (a compute rule could have
 * changed it, so its state is said only as the request gave it).
 */
export function noItemWords(entry: WordedRule, context: ExplanationContext): Words | undefined {
  if (
    entry.status !== "passed" ||
    entry.kind !== "validation" ||
    entry.field !== undefined ||
    entry.assert?.skipped !== true
  )
    return undefined;
  const rule = context.rules?.get(entry.rule);
  if (rule?.forEach !== undefined) {
    const tokens = pointerTokens(rule.forEach);
    const path = code(pathOf(tokens));
    if (context.request === undefined) return ["it ran on no item of ", path];
    const list = valueAtPath(context.request.data, tokens);
    if (list === undefined) return ["it ran on no item because ", path, " is missing"];
    if (list === null) return ["it ran on no item because ", path, " is null"];
    if (Array.isArray(list) && list.length === 0) return ["it ran on no item because ", path, " is empty"];
    return ["it ran on no item of ", path];
  }
  if (rule?.target.type !== undefined) {
    const entity: Words =
      context.request?.entity === undefined ? ["the request's entity"] : [named(context.request.entity)];
    return ["it ran on no field because no field of ", ...entity, " has the type ", code(rule.target.type)];
  }
  return ["it ran on no item or field"];
}

/** A rule's `forEach` list as people find it in the request: `/invoices` → `data.invoices`. */
export function listPath(forEach: string): string {
  return pathOf(pointerTokens(forEach));
}

function pathOf(tokens: readonly string[]): string {
  let path = "data";
  for (const token of tokens) path += `.${token}`;
  return path;
}

/** `/invoices/0/lines` → `["invoices", "0", "lines"]`. */
function pointerTokens(pointer: string): string[] {
  return pointer === "" ? [] : pointer.slice(1).split("/").map(unescapePointerToken);
}
