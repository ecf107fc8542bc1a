import type { PlanCondition } from "../engine/plan/plan-condition.ts";
import { pointerKeys } from "../engine/plan/data-pointer.ts";
import { PlanNotTranslatableError } from "./plan-not-translatable.ts";
import { checkedText } from "./translatable-text.ts";

const ASCII_DIGITS = /^[0-9]+$/;
/** Each digit key doubles the paths (list index or object key): past this many, the SQL grows too big. */
const MAX_DIGIT_KEYS = 4;
/** No SQLite value holds a list this long, so a larger index reads nothing, as evaluation's does. */
const MAX_LIST_INDEX = 2 ** 31;

/**
 * The SQLite JSON paths (`$."a"[0]`) that may hold a pointer's value. A key of ASCII digits is a
 * list index in a list and a key in an object, as evaluation reads it, while a SQLite path says
 * which: such a key gives both paths, of which at most one resolves on any document. Every key is
 * a quoted label with JSON's escapes, which SQLite 3.45 and later decodes, comparing keys by value
 * (older versions compare a label with the document's text as written, escapes and all).
 */
export function sqliteJsonPaths(pointer: string, node: PlanCondition): string[] {
  const keys = pointerKeys(pointer);
  if (keys.filter((key) => ASCII_DIGITS.test(key)).length > MAX_DIGIT_KEYS)
    throw new PlanNotTranslatableError(`the pointer ${pointer} has more than ${MAX_DIGIT_KEYS} keys of digits`, node);
  let paths = ["$"];
  for (const key of keys) {
    checkedText(key, "the key", node);
    const label = `.${quotedLabel(key)}`;
    const index = ASCII_DIGITS.test(key) ? Number(key) : -1;
    paths = paths.flatMap((path) =>
      index >= 0 && index < MAX_LIST_INDEX ? [`${path}[${index}]`, `${path}${label}`] : [`${path}${label}`],
    );
  }
  return paths;
}

/**
 * A key as a quoted SQLite path label: JSON's escapes, with `\"` written `\u0022` because SQLite
 * ends a quoted label at the first `"` whatever precedes it.
 */
function quotedLabel(key: string): string {
  return JSON.stringify(key).replace(/\\(.)/g, (written, character: string) =>
    character === '"' ? "\\u0022" : written,
  );
}
