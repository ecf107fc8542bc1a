import type { JWK } from "jose";

/** The JWS algorithms of bundle signatures (DECISIONS.md, "Signed bundles"): Ed25519 and P-256 keys. */
export type SignatureAlgorithm = "EdDSA" | "ES256";

export const SIGNATURE_ALGORITHMS: readonly SignatureAlgorithm[] = ["EdDSA", "ES256"];

export function isSignatureAlgorithm(value: unknown): value is SignatureAlgorithm {
  return value === "EdDSA" || value === "ES256";
}

/** The algorithm a JWK signs with, from its type and curve; undefined for any other key (RSA, Ed448, P-384, ...). */
export function algorithmOfJwk(jwk: JWK): SignatureAlgorithm | undefined {
  if (jwk.kty === "OKP" && jwk.crv === "Ed25519") return "EdDSA";
  if (jwk.kty === "EC" && jwk.crv === "P-256") return "ES256";
  return undefined;
}

/** A JWK's type as messages name it: `EC P-384`, `RSA`. */
export function keyTypeName(jwk: JWK): string {
  return [jwk.kty ?? "untyped", jwk.crv].filter((part) => part !== undefined).join(" ");
}
