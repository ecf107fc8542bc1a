import { expect, test } from "bun:test";
import { createPrivateKey, createPublicKey } from "node:crypto";
import { calculateJwkThumbprint, type JWK } from "jose";
import { generateKeyPair } from "../../src/signing/key-pair.ts";

test("a key pair is Ed25519 by default, and its kid is the RFC 7638 thumbprint of its public key", async () => {
  const pair = await generateKeyPair();
  expect(pair.algorithm).toBe("EdDSA");
  expect(pair.privateKeyPem).toStartWith("-----BEGIN PRIVATE KEY-----");
  expect(pair.publicKeyPem).toStartWith("-----BEGIN PUBLIC KEY-----");
  const publicKey = createPublicKey(pair.publicKeyPem);
  expect(publicKey.asymmetricKeyType).toBe("ed25519");
  expect(pair.kid).toBe(await calculateJwkThumbprint(publicKey.export({ format: "jwk" }) as JWK, "sha256"));
});

test("an ES256 key pair is a P-256 key whose private and public halves belong together", async () => {
  const pair = await generateKeyPair("ES256");
  const privateKey = createPrivateKey(pair.privateKeyPem);
  expect(privateKey.asymmetricKeyType).toBe("ec");
  expect(privateKey.asymmetricKeyDetails?.namedCurve).toBe("prime256v1");
  expect(createPublicKey(privateKey).export({ format: "jwk" })).toEqual(
    createPublicKey(pair.publicKeyPem).export({ format: "jwk" }),
  );
});

test("every key pair is new", async () => {
  const [one, two] = await Promise.all([generateKeyPair(), generateKeyPair()]);
  expect(one.kid).not.toBe(two.kid);
  expect(one.privateKeyPem).not.toBe(two.privateKeyPem);
});
