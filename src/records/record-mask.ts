import { isJsonObject } from "../engine/value/json-access.ts";
import type { JsonObject, JsonValue } from "../engine/value/json-value.ts";
import { pointerPath } from "../compiler/source/json-pointer.ts";

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
  const pointers = (text ?? "")
    .split(",")
    .map((pointer) => pointer.trim())
    .filter((pointer) => pointer !== "");
  for (const pointer of pointers) {
    if (!pointer.startsWith("/") || pointer === "/")
      throw new RecordMaskError(
        `RULE_SERVER_DECISION_MASK takes JSON Pointers into the request, each starting with / (such as /data/debtor/iban), not ${JSON.stringify(pointer)}`,
      );
  }
  return { pointers, tokens: pointers.map(pointerPath) };
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
 * Replaces each member a pointer finds in `request` with `"***"`, and gives the pointers that found
 * one. The request is changed in place: it is masked only once it has been evaluated and its
 * answer serialized, and nothing reads it after its record (copying the objects along each
 * pointer instead cost about a quarter of making a masked record, measured in process).
 */
export function maskInPlace(request: JsonObject, mask: RecordMask): string[] {
  const masked: string[] = [];
  for (let index = 0; index < mask.tokens.length; index++) {
    if (replaceAt(request, mask.tokens[index]!)) masked.push(mask.pointers[index]!);
  }
  return masked;
}

/** Replaces the member at `tokens` below `root`; false when there is none. */
function replaceAt(root: JsonValue, tokens: readonly string[]): boolean {
  let parent: JsonValue = root;
  for (let depth = 0; depth < tokens.length; depth++) {
    const token = tokens[depth]!;
    let key: string | number;
    if (Array.isArray(parent)) {
      if (!ARRAY_INDEX.test(token) || Number(token) >= parent.length) return false;
      key = Number(token);
    } else if (isJsonObject(parent) && Object.hasOwn(parent, token)) key = token;
    else return false;
    if (depth === tokens.length - 1) {
      // Only an own member gets here, so even one named __proto__ is set as a member, not as the prototype.
      (parent as Record<string | number, JsonValue>)[key] = MASKED_VALUE;
      return true;
    }
    parent = (parent as Record<string | number, JsonValue>)[key]!;
  }
  return false;
}

/** A JSON Pointer token that names an item of a list: no sign, no leading zero. */
const ARRAY_INDEX = /^(0|[1-9][0-9]*)$/;
