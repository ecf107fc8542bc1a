import { readFileSync } from "node:fs";
import { keyIdOf } from "./key-id.ts";
import { importPemKey } from "./pem-key.ts";
import type { SignatureAlgorithm } from "./signature-algorithm.ts";
import { SignatureError } from "./signature-error.ts";

/** A private key to sign bundles with, the algorithm its type signs with, and its id (the signatures' `kid`). */
export interface SigningKey {
  readonly key: CryptoKey;
  readonly algorithm: SignatureAlgorithm;
  readonly kid: string;
}

/** The signing key of a PEM file (`rule-server sign --key`), or SIGNING_KEY_INVALID naming `shownAs`. */
export async function readSigningKeyFile(path: string, shownAs: string = path): Promise<SigningKey> {
  let pem: string;
  try {
    pem = readFileSync(path, "utf8");
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? "unreadable";
    throw new SignatureError("SIGNING_KEY_INVALID", `cannot read the signing key ${shownAs} (${reason})`);
  }
  return readSigningKey(pem, shownAs);
}

/**
 * The signing key of a PKCS #8 PEM text (as keygen and `openssl genpkey` write it), or
 * SIGNING_KEY_INVALID naming `file`: an Ed25519 key signs EdDSA, a P-256 key ES256; a public key,
 * an encrypted key, a key of another type is refused.
 */
export async function readSigningKey(pem: string, file: string): Promise<SigningKey> {
  refuseOtherForms(pem, file);
  const read = await importPemKey(pem, "pkcs8");
  if (read === undefined)
    throw new SignatureError(
      "SIGNING_KEY_INVALID",
      `the signing key ${file} is not an Ed25519 (EdDSA) or P-256 (ES256) private key in PKCS #8 PEM`,
    );
  return { key: read.key, algorithm: read.algorithm, kid: await keyIdOf(read.publicJwk) };
}

/** The PEM forms that are not a private key to sign with, each with what to do instead. */
function refuseOtherForms(pem: string, file: string): void {
  if (pem.includes("-----BEGIN PUBLIC KEY-----"))
    throw new SignatureError(
      "SIGNING_KEY_INVALID",
      `${file} is a public key: sign with the private key (keygen writes it as NAME.pem)`,
    );
  if (pem.includes("-----BEGIN ENCRYPTED PRIVATE KEY-----"))
    throw new SignatureError("SIGNING_KEY_INVALID", `the signing key ${file} is encrypted: give it unencrypted`);
  if (pem.includes("-----BEGIN EC PRIVATE KEY-----"))
    throw new SignatureError(
      "SIGNING_KEY_INVALID",
      `the signing key ${file} is a SEC 1 EC key: convert it to PKCS #8 (openssl pkcs8 -topk8 -nocrypt)`,
    );
}
