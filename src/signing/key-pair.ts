import { exportJWK, exportPKCS8, exportSPKI, generateKeyPair as generateJoseKeyPair } from "jose";
import { keyIdOf } from "./key-id.ts";
import type { SignatureAlgorithm } from "./signature-algorithm.ts";

/** A new signing key: the private key (PKCS #8 PEM) to sign with, the public key (SPKI PEM) to trust, and their id. */
export interface KeyPair {
  readonly algorithm: SignatureAlgorithm;
  readonly privateKeyPem: string;
  readonly publicKeyPem: string;
  /** The key's RFC 7638 thumbprint, the `kid` of the signatures it makes. */
  readonly kid: string;
}

/** A new key pair for bundle signatures: Ed25519 (EdDSA) unless ES256 (P-256) is asked for. */
export async function generateKeyPair(algorithm: SignatureAlgorithm = "EdDSA"): Promise<KeyPair> {
  const { privateKey, publicKey } = await generateJoseKeyPair(algorithm, { extractable: true });
  return {
    algorithm,
    privateKeyPem: await exportPKCS8(privateKey),
    publicKeyPem: await exportSPKI(publicKey),
    kid: await keyIdOf(await exportJWK(publicKey)),
  };
}
