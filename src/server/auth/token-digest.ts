/** Bytes in a SHA-256 digest. */
export const DIGEST_BYTES = 32;

/**
 * The SHA-256 digest of a token's UTF-8 bytes: what a credential keeps in place of its token, and
 * what a presented token is compared by. Written into `into` when given (no allocation per request).
 */
export function tokenDigest(token: string, into: Uint8Array = new Uint8Array(DIGEST_BYTES)): Uint8Array {
  Bun.SHA256.hash(token, into);
  return into;
}

/** The bytes of a digest written in hex (checked to be 64 hex digits), in either case. */
export function digestFromHex(hex: string): Uint8Array {
  return Uint8Array.from(Buffer.from(hex, "hex"));
}
