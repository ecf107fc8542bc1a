import { unescapePointerToken } from "../value/json-pointer-token.ts";
import { valueAtPath } from "../value/json-access.ts";
import { code, named, type Words } from "./explanation-words.ts";
import type { WordedRule } from "./explanation.ts";
import type { ExplanationContext, RuleFacts } from "./wording-context.ts";

/**
 * A validation rule run per item of a list (`forEach`) or per field bound to its type passes when
 * it runs on none: its assertion was never evaluated, so "its assertion holds" would say what did
 * not happen. A full explanation shows it: no item or field shown, the assertion skipped.
 * Undefined for any other entry. The list is read in the request (a compute rule could have
 * changed it, so its state is said only as the request gave it).
 */
export function noItemWords(entry: WordedRule, context: ExplanationContext): Words | undefined {
  const reason = noItemReason(entry, context);
  return reason === undefined ? undefined : noItemReasonWords(reason, context.rules?.get(entry.rule), context);
}

/**
 * Why a rule ran on no item or field, as far as the words tell it: what the request gave at the
 * rule's list (`missing`, `null`, `empty`, `unknown` without the request, `items` when it holds
 * some), `type` for a rule run per field of a type, `none` otherwise. The words follow from the
 * reason and the rule alone (but for `type`, the request's entity), so they can be said once.
 * Undefined for an entry that did not run on none.
 */
export type NoItemReason = "missing" | "null" | "empty" | "unknown" | "items" | "type" | "none";

export function noItemReason(entry: WordedRule, context: ExplanationContext): NoItemReason | undefined {
  if (
    entry.status !== "passed" ||
    entry.kind !== "validation" ||
    entry.field !== undefined ||
    entry.assert?.skipped !== true
  )
    return undefined;
  const rule = context.rules?.get(entry.rule);
  if (rule?.forEach !== undefined) {
    if (context.request === undefined) return "unknown";
    const list = valueAtPath(context.request.data, pointerTokens(rule.forEach));
    if (list === undefined) return "missing";
    if (list === null) return "null";
    if (Array.isArray(list) && list.length === 0) return "empty";
    return "items";
  }
  return rule?.target.type !== undefined ? "type" : "none";
}

/** The words of a reason (noItemReason) for `rule`. */
export function noItemReasonWords(
  reason: NoItemReason,
  rule: RuleFacts | undefined,
  context: ExplanationContext,
): Words {
  if (rule?.forEach !== undefined) {
    const path = code(listPath(rule.forEach));
    switch (reason) {
      case "missing":
        return ["it ran on no item because ", path, " is missing"];
      case "null":
        return ["it ran on no item because ", path, " is null"];
      case "empty":
        return ["it ran on no item because ", path, " is empty"];
      default:
        return ["it ran on no item of ", path];
    }
  }
  if (reason === "type" && rule?.target.type !== undefined) {
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

/** `/invoices/0/lines` → `["invoices", "0", "lines"]`; made once per pointer (the rules' lists, few). */
function pointerTokens(pointer: string): readonly string[] {
  let tokens = tokensByPointer.get(pointer);
  if (tokens === undefined) {
    tokens = pointer === "" ? [] : pointer.slice(1).split("/").map(unescapePointerToken);
    tokensByPointer.set(pointer, tokens);
  }
  return tokens;
}

const tokensByPointer = new Map<string, readonly string[]>();
