import { afterAll, beforeAll, expect, test } from "bun:test";
import { createPublicKey } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CompactSign } from "jose";
import type { KeyPair } from "../../src/signing/key-pair.ts";
import { BUNDLE_SIGNATURE_TYPE, signBundle } from "../../src/signing/sign-bundle.ts";
import { claimsOfBundle } from "../../src/signing/signature-claims.ts";
import { SignatureError } from "../../src/signing/signature-error.ts";
import type { SigningKey } from "../../src/signing/signing-key.ts";
import { TrustedKeys } from "../../src/signing/trusted-keys.ts";
import { PROJECT_ROOT } from "../support/run-cli.ts";
import { writtenKeyPair } from "../support/signing-keys.ts";
import { temporaryDirectory } from "../support/temp-directory.ts";

const BUNDLE = readFileSync(join(PROJECT_ROOT, "test/cases/interop/library/library-base.bundle.json"));
const OTHER_BUNDLE = readFileSync(join(PROJECT_ROOT, "test/cases/interop/library/library-loans.bundle.json"));
const directory = temporaryDirectory({});
afterAll(() => directory.remove());

let trustedPair: KeyPair;
let trustedKey: SigningKey;
let trusted: TrustedKeys;
let untrustedKey: SigningKey;
beforeAll(async () => {
  const written = await writtenKeyPair(directory.path, "trusted");
  trustedPair = written.pair;
  trustedKey = written.signingKey;
  trusted = await TrustedKeys.read(written.publicFile);
  untrustedKey = (await writtenKeyPair(directory.path, "untrusted")).signingKey;
});

const base64url = (text: string | Uint8Array) => Buffer.from(text).toString("base64url");

/** A compact JWS with this header and payload, signed by `key` with the header's alg. */
function signed(header: Record<string, unknown>, payload: unknown, key: SigningKey | Uint8Array): Promise<string> {
  const bytes = new TextEncoder().encode(typeof payload === "string" ? payload : JSON.stringify(payload));
  return new CompactSign(bytes).setProtectedHeader(header as { alg: string }).sign("key" in key ? key.key : key);
}

async function refusal(jws: string, keys: TrustedKeys = trusted): Promise<SignatureError> {
  const error = await keys.verify(jws).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof SignatureError)) throw new Error(`expected a SignatureError, got ${error}`);
  expect(error.code).toBe("SIGNATURE_INVALID");
  return error;
}

test("a signature by a trusted key verifies, and says which key made it", async () => {
  const verified = await trusted.verify(await signBundle(BUNDLE, trustedKey));
  expect(verified).toEqual({ claims: claimsOfBundle(BUNDLE, "bundle"), kid: trustedPair.kid });
  expect(trusted.size).toBe(1);
  expect(trusted.kids).toEqual([trustedPair.kid]);
});

test("a signature with a newline after it, as in a .sig file, verifies", async () => {
  expect((await trusted.verify(`${await signBundle(BUNDLE, trustedKey)}\n`)).kid).toBe(trustedPair.kid);
});

test("a tampered payload does not verify", async () => {
  const [header, , signature] = (await signBundle(BUNDLE, trustedKey)).split(".");
  const otherPayload = base64url(JSON.stringify(claimsOfBundle(OTHER_BUNDLE, "other")));
  const error = await refusal(`${header}.${otherPayload}.${signature}`);
  expect(error.message).toBe(`the signature does not verify with the trusted key ${trustedPair.kid}`);
});

test("a tampered signature does not verify", async () => {
  const [header, payload, signature] = (await signBundle(BUNDLE, trustedKey)).split(".");
  const bytes = Buffer.from(signature!, "base64url");
  bytes[10]! ^= 1;
  await refusal(`${header}.${payload}.${bytes.toString("base64url")}`);
});

test("a signature by an untrusted key does not verify, also when it names a trusted key's kid", async () => {
  const error = await refusal(await signBundle(BUNDLE, untrustedKey));
  expect(error.message).toBe(`the signature is by key ${untrustedKey.kid}, which is not among the trusted keys`);
  const forged = await signed(
    { alg: "EdDSA", kid: trustedPair.kid, typ: BUNDLE_SIGNATURE_TYPE },
    claimsOfBundle(BUNDLE, "bundle"),
    untrustedKey,
  );
  await refusal(forged);
});

test("an unsigned (alg none) signature is refused", async () => {
  const header = base64url(JSON.stringify({ alg: "none", kid: trustedPair.kid, typ: BUNDLE_SIGNATURE_TYPE }));
  const payload = base64url(JSON.stringify(claimsOfBundle(BUNDLE, "bundle")));
  const error = await refusal(`${header}.${payload}.`);
  expect(error.message).toContain('algorithm "none" is not accepted');
});

test("an HS256 signature with the public key as its secret is refused", async () => {
  const publicKeyBytes = createPublicKey(trustedPair.publicKeyPem).export({ type: "spki", format: "der" });
  const jws = await signed(
    { alg: "HS256", kid: trustedPair.kid, typ: BUNDLE_SIGNATURE_TYPE },
    claimsOfBundle(BUNDLE, "bundle"),
    new Uint8Array(publicKeyBytes),
  );
  const error = await refusal(jws);
  expect(error.message).toContain('algorithm "HS256" is not accepted');
});

test("an algorithm other than the key's is refused", async () => {
  const es256 = (await writtenKeyPair(directory.path, "es256", "ES256")).signingKey;
  const jws = await signed(
    { alg: "ES256", kid: trustedPair.kid, typ: BUNDLE_SIGNATURE_TYPE },
    claimsOfBundle(BUNDLE, "bundle"),
    es256,
  );
  const error = await refusal(jws);
  expect(error.message).toBe(`the signature says ES256, but the trusted key ${trustedPair.kid} is an EdDSA key`);
});

test("a malformed JWS is refused", async () => {
  const valid = await signBundle(BUNDLE, trustedKey);
  const [header, payload, signature] = valid.split(".");
  for (const jws of [
    "",
    "not a jws",
    `${header}.${payload}`,
    `${valid}.${signature}`,
    `!!.${payload}.${signature}`,
    `${base64url("not json")}.${payload}.${signature}`,
    `${header}.${payload}.!!`,
  ])
    await refusal(jws);
});

test("a signature of another type, or of none, is refused; the type is matched as a media type", async () => {
  const claims = claimsOfBundle(BUNDLE, "bundle");
  const header = { alg: "EdDSA", kid: trustedPair.kid };
  await refusal(await signed({ ...header, typ: "JWT" }, claims, trustedKey));
  await refusal(await signed(header, claims, trustedKey));
  const mediaType = await signed(
    { ...header, typ: `application/${BUNDLE_SIGNATURE_TYPE.toUpperCase()}` },
    claims,
    trustedKey,
  );
  expect((await trusted.verify(mediaType)).claims).toEqual(claims);
});

test("a trusted key's signature over a payload that is not the claims is refused", async () => {
  const header = { alg: "EdDSA", kid: trustedPair.kid, typ: BUNDLE_SIGNATURE_TYPE };
  const { digest: _, ...withoutDigest } = claimsOfBundle(BUNDLE, "bundle");
  for (const payload of ["not json", "[]", withoutDigest]) await refusal(await signed(header, payload, trustedKey));
});

test("a signature without a kid is tried with every key of its algorithm", async () => {
  const other = await writtenKeyPair(directory.path, "second");
  const both = await TrustedKeys.read(`${other.publicFile},${join(directory.path, "trusted.pub.pem")}`);
  const jws = await signed({ alg: "EdDSA", typ: BUNDLE_SIGNATURE_TYPE }, claimsOfBundle(BUNDLE, "bundle"), trustedKey);
  expect((await both.verify(jws)).kid).toBe(trustedPair.kid);
  const untrusted = await signed(
    { alg: "EdDSA", typ: BUNDLE_SIGNATURE_TYPE },
    claimsOfBundle(BUNDLE, "b"),
    untrustedKey,
  );
  expect((await refusal(untrusted, both)).message).toBe("the signature verifies with none of the EdDSA trusted keys");
});
