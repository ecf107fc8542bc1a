/**
 * Why a bundle signature cannot be made or checked:
 * - `SIGNATURE_INVALID`: a JWS that is malformed, not by a trusted key, with an algorithm other
 *   than the key's (EdDSA or ES256), or whose payload is not a bundle's claims;
 * - `TRUSTED_KEYS_INVALID`: RULE_SERVER_TRUSTED_KEYS names a file that cannot be read or parsed,
 *   a private key, or a key of a type other than Ed25519 and P-256;
 * - `SIGNING_KEY_INVALID`: the key to sign with is not an Ed25519 or P-256 private key in PEM;
 * - `BUNDLE_NOT_SIGNABLE`: the file to sign is not a compiled bundle.
 * Messages name the file or the key's id, never a key's bytes.
 */
export type SignatureErrorCode =
  | "SIGNATURE_INVALID"
  | "TRUSTED_KEYS_INVALID"
  | "SIGNING_KEY_INVALID"
  | "BUNDLE_NOT_SIGNABLE";

export class SignatureError extends Error {
  override readonly name = "SignatureError";

  constructor(
    readonly code: SignatureErrorCode,
    message: string,
  ) {
    super(message);
  }
}
