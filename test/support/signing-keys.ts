import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { generateKeyPair, type KeyPair } from "../../src/signing/key-pair.ts";
import type { SignatureAlgorithm } from "../../src/signing/signature-algorithm.ts";
import { readSigningKey, type SigningKey } from "../../src/signing/signing-key.ts";

/** A new key pair with its signing key, its public key written to `directory` as `<name>.pub.pem`. */
export async function writtenKeyPair(
  directory: string,
  name: string,
  algorithm: SignatureAlgorithm = "EdDSA",
): Promise<{ pair: KeyPair; signingKey: SigningKey; publicFile: string }> {
  const pair = await generateKeyPair(algorithm);
  const publicFile = join(directory, `${name}.pub.pem`);
  writeFileSync(publicFile, pair.publicKeyPem);
  return { pair, signingKey: await readSigningKey(pair.privateKeyPem, `${name}.pem`), publicFile };
}
