import { afterAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { createPrivateKey, createPublicKey, generateKeyPairSync } from "node:crypto";
import { join } from "node:path";
import type { JWK } from "jose";
import { signBundle } from "../../src/signing/sign-bundle.ts";
import { SignatureError } from "../../src/signing/signature-error.ts";
import { TrustedKeys } from "../../src/signing/trusted-keys.ts";
import { writtenKeyPair } from "../support/signing-keys.ts";
import { temporaryDirectory } from "../support/temp-directory.ts";

const BUNDLE = new TextEncoder().encode(
  JSON.stringify({ ruleCascadeBundle: "1.0.0", id: "a", version: "1.0.0", checksum: "sha256:00", manifests: {} }),
);
const directory = temporaryDirectory({});
afterAll(() => directory.remove());

function write(name: string, text: string): string {
  const path = join(directory.path, name);
  writeFileSync(path, text);
  return path;
}

const publicJwk = (pem: string) => createPublicKey(pem).export({ format: "jwk" }) as JWK;

async function refusal(setting: string, cwd?: string): Promise<SignatureError> {
  const error = await TrustedKeys.read(setting, cwd).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof SignatureError)) throw new Error(`expected a SignatureError, got ${error}`);
  expect(error.code).toBe("TRUSTED_KEYS_INVALID");
  return error;
}

test("a comma-separated list of PEM files, relative to the working directory, trusts each key", async () => {
  const one = await writtenKeyPair(directory.path, "list-one");
  const two = await writtenKeyPair(directory.path, "list-two", "ES256");
  const trusted = await TrustedKeys.read(" list-one.pub.pem , list-two.pub.pem,", directory.path);
  expect(trusted.kids).toEqual([one.pair.kid, two.pair.kid]);
  expect((await trusted.verify(await signBundle(BUNDLE, one.signingKey))).kid).toBe(one.pair.kid);
  expect((await trusted.verify(await signBundle(BUNDLE, two.signingKey))).kid).toBe(two.pair.kid);
});

test("the same key named twice is one key", async () => {
  const { publicFile, pair } = await writtenKeyPair(directory.path, "twice");
  expect((await TrustedKeys.read(`${publicFile},${publicFile}`)).kids).toEqual([pair.kid]);
});

test("a JWKS names its keys with its own kids; a signature naming the thumbprint verifies with them", async () => {
  const named = await writtenKeyPair(directory.path, "jwks-named", "ES256");
  const unnamed = await writtenKeyPair(directory.path, "jwks-unnamed");
  const file = write(
    "keys.jwks.json",
    JSON.stringify({
      keys: [
        { ...publicJwk(named.pair.publicKeyPem), kid: "release-2025", alg: "ES256", use: "sig" },
        publicJwk(unnamed.pair.publicKeyPem),
      ],
    }),
  );
  const trusted = await TrustedKeys.read(file);
  expect(trusted.size).toBe(2);
  expect(trusted.kids).toEqual(["release-2025", unnamed.pair.kid]);
  expect((await trusted.verify(await signBundle(BUNDLE, named.signingKey))).kid).toBe("release-2025");
  expect((await trusted.verify(await signBundle(BUNDLE, unnamed.signingKey))).kid).toBe(unnamed.pair.kid);
});

test("a JWKS holding a private key is refused", async () => {
  const { pair } = await writtenKeyPair(directory.path, "jwks-private");
  const privateJwk = createPrivateKey(pair.privateKeyPem).export({ format: "jwk" });
  const error = await refusal(write("private.jwks.json", JSON.stringify({ keys: [privateJwk] })));
  expect(error.message).toContain('private.jwks.json, key 1 is a private key (it has "d")');
  expect(error.message).not.toContain(String(privateJwk.d));
});

test("a PEM private key given as trusted is refused, in PKCS #8 as in SEC 1 form", async () => {
  const { pair } = await writtenKeyPair(directory.path, "pem-private");
  const error = await refusal(write("pem-private.pem", pair.privateKeyPem));
  expect(error.message).toContain("pem-private.pem holds a private key");
  const sec1 = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ type: "sec1", format: "pem" });
  expect((await refusal(write("sec1-private.pem", sec1 as string))).message).toContain("holds a private key");
});

test("a trusted key file that cannot be read is refused, naming it", async () => {
  const error = await refusal("missing.pub.pem", directory.path);
  expect(error.message).toBe("cannot read the trusted key file missing.pub.pem (ENOENT)");
  await refusal(directory.path); // a directory
});

test("a file that is neither one PEM public key nor a JWKS is refused", async () => {
  const { pair } = await writtenKeyPair(directory.path, "malformed");
  const settings = [
    write("garbage.pem", "not a key\n"),
    write("two-keys.pem", pair.publicKeyPem + pair.publicKeyPem),
    write("broken.pem", "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n"),
    write("broken.jwks.json", "{ keys: "),
    write("no-keys.jwks.json", JSON.stringify({ key: [] })),
    write("empty.jwks.json", JSON.stringify({ keys: [] })),
    write("not-objects.jwks.json", JSON.stringify({ keys: ["key"] })),
    write("bad-point.jwks.json", JSON.stringify({ keys: [{ kty: "OKP", crv: "Ed25519", x: "AAAA" }] })),
    `${write("jwks-in-list.jwks.json", JSON.stringify({ keys: [publicJwk(pair.publicKeyPem)] }))},${join(directory.path, "malformed.pub.pem")}`,
    "",
    " , ",
  ];
  for (const setting of settings) await refusal(setting);
});

test("a key of a type other than Ed25519 and P-256 is refused", async () => {
  const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 }).publicKey.export({ type: "spki", format: "pem" });
  const p384 = generateKeyPairSync("ec", { namedCurve: "P-384" }).publicKey;
  for (const setting of [
    write("rsa.pub.pem", rsa as string),
    write("p384.pub.pem", p384.export({ type: "spki", format: "pem" }) as string),
    write("p384.jwks.json", JSON.stringify({ keys: [p384.export({ format: "jwk" })] })),
    write("secret.jwks.json", JSON.stringify({ keys: [{ kty: "oct", k: "c2VjcmV0" }] })),
  ])
    expect((await refusal(setting)).message).toContain("Ed25519 (EdDSA) or P-256 (ES256) keys only");
});

test("a JWK whose alg or use does not fit the key, or two keys under one kid, are refused", async () => {
  const one = await writtenKeyPair(directory.path, "fit-one");
  const two = await writtenKeyPair(directory.path, "fit-two");
  const jwk = publicJwk(one.pair.publicKeyPem);
  for (const keys of [
    [{ ...jwk, alg: "ES256" }],
    [{ ...jwk, use: "enc" }],
    [
      { ...jwk, kid: "same" },
      { ...publicJwk(two.pair.publicKeyPem), kid: "same" },
    ],
  ])
    await refusal(write("unfit.jwks.json", JSON.stringify({ keys })));
});
