import { escapePointerToken, unescapePointerToken } from "../value/json-pointer-token.ts";

/**
 * JSON Pointers (RFC 6901) into `data`, the form a plan names its fields in, and the `var` paths
 * expressions read them by (`data.a.b` is `/a/b`).
 */
export function pointerKeys(pointer: string): string[] {
  return pointer === "" ? [] : pointer.slice(1).split("/").map(unescapePointerToken);
}

export function pointerOf(keys: readonly string[]): string {
  return keys.map((key) => `/${escapePointerToken(key)}`).join("");
}
