import { afterAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { decodeProtectedHeader } from "jose";
import { BUNDLE_SIGNATURE_TYPE, signBundle } from "../../src/signing/sign-bundle.ts";
import { claimsOfBundle } from "../../src/signing/signature-claims.ts";
import { SignatureError } from "../../src/signing/signature-error.ts";
import { TrustedKeys } from "../../src/signing/trusted-keys.ts";
import { PROJECT_ROOT } from "../support/run-cli.ts";
import { writtenKeyPair } from "../support/signing-keys.ts";
import { temporaryDirectory } from "../support/temp-directory.ts";

const BUNDLE = readFileSync(join(PROJECT_ROOT, "test/cases/interop/library/library-base.bundle.json"));
const directory = temporaryDirectory({});
afterAll(() => directory.remove());

for (const algorithm of ["EdDSA", "ES256"] as const)
  test(`an ${algorithm} signature verifies with the public key, whose kid is the header's`, async () => {
    const { pair, signingKey, publicFile } = await writtenKeyPair(directory.path, `round-trip-${algorithm}`, algorithm);
    const jws = await signBundle(BUNDLE, signingKey);
    const trusted = await TrustedKeys.read(publicFile);
    expect(trusted.kids).toEqual([pair.kid]);
    expect(decodeProtectedHeader(jws)).toEqual({ alg: algorithm, kid: pair.kid, typ: BUNDLE_SIGNATURE_TYPE });
    expect(await trusted.verify(jws)).toEqual({ claims: claimsOfBundle(BUNDLE, "bundle"), kid: pair.kid });
  });

test("the payload is exactly the four claims, in order", async () => {
  const { signingKey } = await writtenKeyPair(directory.path, "payload");
  const payload = (await signBundle(BUNDLE, signingKey)).split(".")[1]!;
  const { id, version, checksum, digest } = claimsOfBundle(BUNDLE, "bundle");
  expect(Buffer.from(payload, "base64url").toString("utf8")).toBe(JSON.stringify({ id, version, checksum, digest }));
});

test("a file that is not a bundle is not signed: BUNDLE_NOT_SIGNABLE naming the file", async () => {
  const { signingKey } = await writtenKeyPair(directory.path, "not-a-bundle");
  const signing = signBundle(new TextEncoder().encode("id: x\n"), signingKey, "rules/x.ruleset.yaml");
  await expect(signing).rejects.toBeInstanceOf(SignatureError);
  await expect(signing).rejects.toMatchObject({
    code: "BUNDLE_NOT_SIGNABLE",
    message: expect.stringContaining("rules/x.ruleset.yaml"),
  });
});
