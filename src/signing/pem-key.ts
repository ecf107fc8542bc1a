import { exportJWK, importPKCS8, importSPKI, type JWK } from "jose";
import { SIGNATURE_ALGORITHMS, type SignatureAlgorithm } from "./signature-algorithm.ts";

/** A key read from PEM, with the algorithm it signs with and its public members (for its thumbprint). */
export interface PemKey {
  readonly key: CryptoKey;
  readonly algorithm: SignatureAlgorithm;
  readonly publicJwk: JWK;
}

/**
 * The Ed25519 or P-256 key of a PKCS #8 (private) or SPKI (public) PEM text; undefined for any
 * other text or key type. Read through WebCrypto, not node:crypto, which the command line must not
 * load at start (test/architecture/start-up-imports.test.ts); WebCrypto tells a key's type only
 * by importing it, so each algorithm is tried in turn.
 */
export async function importPemKey(pem: string, form: "pkcs8" | "spki"): Promise<PemKey | undefined> {
  for (const algorithm of SIGNATURE_ALGORITHMS) {
    let key: CryptoKey;
    try {
      key =
        form === "pkcs8"
          ? await importPKCS8(pem, algorithm, { extractable: true })
          : await importSPKI(pem, algorithm, { extractable: true });
    } catch {
      continue; // another key type: the next algorithm
    }
    const { kty, crv, x, y } = await exportJWK(key);
    return { key, algorithm, publicJwk: y === undefined ? { kty, crv, x } : { kty, crv, x, y } };
  }
  return undefined;
}
