import { expect, test } from "bun:test";
import { createPrivateKey, generateKeyPairSync } from "node:crypto";
import { join } from "node:path";
import { generateKeyPair } from "../../src/signing/key-pair.ts";
import { SignatureError } from "../../src/signing/signature-error.ts";
import { readSigningKey, readSigningKeyFile } from "../../src/signing/signing-key.ts";
import { temporaryDirectory } from "../support/temp-directory.ts";

async function refusal(reading: Promise<unknown>): Promise<SignatureError> {
  const error = await reading.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof SignatureError)) throw new Error(`expected a SignatureError, got ${error}`);
  return error;
}

test("an Ed25519 private key signs EdDSA, with the kid of its key pair", async () => {
  const pair = await generateKeyPair("EdDSA");
  const key = await readSigningKey(pair.privateKeyPem, "signing.pem");
  expect(key.algorithm).toBe("EdDSA");
  expect(key.kid).toBe(pair.kid);
  expect(key.key.type).toBe("private");
});

test("a P-256 private key signs ES256, with the kid of its key pair", async () => {
  const pair = await generateKeyPair("ES256");
  const key = await readSigningKey(pair.privateKeyPem, "signing.pem");
  expect(key.algorithm).toBe("ES256");
  expect(key.kid).toBe(pair.kid);
});

test("a key written by OpenSSL's tools in PKCS #8 is read; one in SEC 1 is refused with the conversion to make", async () => {
  const ec = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey;
  const pkcs8 = await readSigningKey(ec.export({ type: "pkcs8", format: "pem" }) as string, "ec.pem");
  expect(pkcs8.algorithm).toBe("ES256");
  const sec1 = readSigningKey(ec.export({ type: "sec1", format: "pem" }) as string, "ec.pem");
  await expect(sec1).rejects.toMatchObject({
    code: "SIGNING_KEY_INVALID",
    message: "the signing key ec.pem is a SEC 1 EC key: convert it to PKCS #8 (openssl pkcs8 -topk8 -nocrypt)",
  });
});

test("a public key, an encrypted key, a key of another type or no key at all is SIGNING_KEY_INVALID", async () => {
  const pair = await generateKeyPair();
  const otherKeys = [
    generateKeyPairSync("ec", { namedCurve: "P-384" }).privateKey,
    generateKeyPairSync("x25519").privateKey,
    generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey,
  ].map((key) => key.export({ type: "pkcs8", format: "pem" }) as string);
  const encrypted = createPrivateKey(pair.privateKeyPem).export({
    type: "pkcs8",
    format: "pem",
    cipher: "aes-256-cbc",
    passphrase: "secret",
  }) as string;
  for (const pem of otherKeys)
    await expect(readSigningKey(pem, "other.pem")).rejects.toThrow(
      "the signing key other.pem is not an Ed25519 (EdDSA) or P-256 (ES256) private key in PKCS #8 PEM",
    );
  for (const pem of [pair.publicKeyPem, encrypted, ...otherKeys, "not a key", ""]) {
    const error = await refusal(readSigningKey(pem, "keys/signing.pem"));
    expect(error.code).toBe("SIGNING_KEY_INVALID");
    expect(error.message).toContain("keys/signing.pem");
    // Never a key's bytes: no line of the PEM's body.
    for (const line of pem.split("\n").filter((line) => line.length > 20 && !line.startsWith("-----")))
      expect(error.message).not.toContain(line);
  }
});

test("a key file that cannot be read is SIGNING_KEY_INVALID naming the file as given", async () => {
  const directory = temporaryDirectory({});
  try {
    const error = await refusal(readSigningKeyFile(join(directory.path, "missing.pem"), "missing.pem"));
    expect(error.code).toBe("SIGNING_KEY_INVALID");
    expect(error.message).toBe("cannot read the signing key missing.pem (ENOENT)");
  } finally {
    directory.remove();
  }
});
