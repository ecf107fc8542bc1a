import { isJsonObject } from "../engine/value/json-access.ts";
import type { JsonObject, JsonValue } from "../engine/value/json-value.ts";
import { fragmentPath } from "../compiler/source/json-pointer.ts";

/** What replaces a masked member: a record shows that there was a value, never which. */
export const MASKED_VALUE = "***";

/** `RULE_SERVER_DECISION_MASK`: JSON Pointers into the request, each as its tokens. */
export interface RecordMask {
  readonly pointers: readonly string[];
  readonly tokens: readonly (readonly string[])[];
}

export class RecordMaskError extends Error {
  readonly code = "RECORD_MASK_INVALID";
}

/** Reads a comma-separated list of JSON Pointers (`/data/debtor/iban,/actor/id`); empty for none. */
export function parseRecordMask(text: string | undefined): RecordMask {
  const pointers = (text ?? "").split(",").map((pointer) => pointer.trim()).filter((pointer) => pointer !== "");
  for (const pointer of pointers) {
    if (!pointer.startsWith("/") || pointer === "/") throw new RecordMaskError(`RULE_SERVER_DECISION_MASK takes JSON Pointers into the request, each starting with / (such as /data/debtor/iban), not ${JSON.stringify(pointer)}`);
  }
  return { pointers, tokens: pointers.map(fragmentPath) };
}

/** Why a mask setting is refused, or undefined when it reads. */
export function recordMaskProblem(text: string | undefined): string | undefined {
  try {
    parseRecordMask(text);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * The request with each member a pointer finds replaced by `"***"`, and the pointers that found
 * one. Only the objects and lists along those pointers are copied: the request itself is never
 * changed (it is the evaluation's input).
 */
export function maskRequest(request: JsonObject, mask: RecordMask): { request: JsonObject; masked: string[] } {
  let copy = request;
  const masked: string[] = [];
  for (let index = 0; index < mask.tokens.length; index++) {
    const replaced = replaceAt(copy, mask.tokens[index]!, 0);
    if (replaced !== undefined) {
      copy = replaced as JsonObject;
      masked.push(mask.pointers[index]!);
    }
  }
  return { request: copy, masked };
}

/** A copy of `value` with the member at `tokens` replaced, or undefined when there is none. */
function replaceAt(value: JsonValue, tokens: readonly string[], depth: number): JsonValue | undefined {
  const token = tokens[depth]!;
  const last = depth === tokens.length - 1;
  if (Array.isArray(value)) {
    if (!/^(0|[1-9][0-9]*)$/.test(token) || Number(token) >= value.length) return undefined;
    const inner = last ? MASKED_VALUE : replaceAt(value[Number(token)]!, tokens, depth + 1);
    if (inner === undefined) return undefined;
    const copy = [...value];
    copy[Number(token)] = inner;
    return copy;
  }
  if (!isJsonObject(value) || !Object.hasOwn(value, token)) return undefined;
  const inner = last ? MASKED_VALUE : replaceAt(value[token]!, tokens, depth + 1);
  return inner === undefined ? undefined : { ...value, [token]: inner };
}
