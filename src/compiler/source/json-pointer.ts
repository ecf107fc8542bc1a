/**
 * JSON Pointers (RFC 6901) as the compiler meets them: schema problems' instance paths and the
 * `#/...` fragments of entity schema references. In a segment `~1` stands for `/` and `~0` for `~`.
 */

import {
  escapePointerToken as escapeSegment,
  unescapePointerToken as unescapeSegment,
} from "../../engine/value/json-pointer-token.ts";

/** `/rules/0/assert` → `["rules", "0", "assert"]`; `""` (the document itself) → `[]`. */
export function pointerPath(pointer: string): string[] {
  return pointer === "" ? [] : pointer.slice(1).split("/").map(unescapeSegment);
}

/** The segments of a `$ref` fragment (`#/components/schemas/Transfer`; a leading `#` and slashes are optional). */
export function fragmentPath(fragment: string): string[] {
  const path = fragment.replace(/^[#/]+/, "");
  return path === "" ? [] : path.split("/").map(unescapeSegment);
}

/** Segments written back as a fragment: `["a", "b/c"]` → `#/a/b~1c`. */
export function fragmentOf(segments: readonly string[]): string {
  return `#/${segments.map(escapeSegment).join("/")}`;
}
