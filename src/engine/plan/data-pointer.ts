/**
 * JSON Pointers (RFC 6901) into `data`, the form a plan names its fields in, and the `var` paths
 * expressions read them by (`data.a.b` is `/a/b`).
 */
export function pointerKeys(pointer: string): string[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((key) => key.replaceAll("~1", "/").replaceAll("~0", "~"));
}

export function pointerOf(keys: readonly string[]): string {
  return keys.map((key) => `/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`).join("");
}
