import { calculateJwkThumbprint, type JWK } from "jose";

/**
 * The id of a key: its RFC 7638 JWK thumbprint (SHA-256, base64url). It depends on the public
 * members only, so a private key, its public key as PEM and as a JWK all have the same id, and a
 * signature's `kid` names the public key that verifies it without anyone choosing names.
 */
export function keyIdOf(jwk: JWK): Promise<string> {
  return calculateJwkThumbprint(jwk, "sha256");
}
