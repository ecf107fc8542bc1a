/** A JWT key set that cannot be used: its file does not load, or its URL is not https. */
export class JwksError extends Error {
  readonly code = "JWKS_INVALID" as const;
  override readonly name = "JwksError";
}
