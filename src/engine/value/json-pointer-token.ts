/** A reference token of a JSON Pointer (RFC 6901): `~` written `~0`, `/` written `~1`. */
export function escapePointerToken(token: string): string {
  return token.includes("~") || token.includes("/") ? token.replaceAll("~", "~0").replaceAll("/", "~1") : token;
}

/** A reference token read back: `~1` is `/`, then `~0` is `~`. */
export function unescapePointerToken(token: string): string {
  return token.includes("~") ? token.replaceAll("~1", "/").replaceAll("~0", "~") : token;
}
