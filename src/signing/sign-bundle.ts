import { CompactSign } from "jose";
import { claimsOfBundle } from "./signature-claims.ts";
import type { SigningKey } from "./signing-key.ts";

/**
 * The `typ` of a bundle signature's protected header (RFC 7515 4.1.9, explicit typing as RFC 8725
 * 3.11 advises): verification requires it, so that a JWS the same key signed for something else
 * (a token, another tool's payload) is never taken for a bundle signature.
 */
export const BUNDLE_SIGNATURE_TYPE = "rule-cascade-bundle+jws";

/**
 * A bundle file's signature (DECISIONS.md, "Signed bundles"): a compact JWS with the protected
 * header `{alg, kid, typ}` whose payload is the bundle's claims (claimsOfBundle). Throws
 * BUNDLE_NOT_SIGNABLE, naming `file`, when the bytes are not a bundle.
 */
export async function signBundle(bundleBytes: Uint8Array, signingKey: SigningKey, file = "the file"): Promise<string> {
  const { id, version, checksum, digest } = claimsOfBundle(bundleBytes, file);
  const payload = new TextEncoder().encode(JSON.stringify({ id, version, checksum, digest }));
  return new CompactSign(payload)
    .setProtectedHeader({ alg: signingKey.algorithm, kid: signingKey.kid, typ: BUNDLE_SIGNATURE_TYPE })
    .sign(signingKey.key);
}
