import { expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { claimsOfBundle, readSignatureClaims } from "../../src/signing/signature-claims.ts";
import { sha256Digest as bundleDigest } from "../../src/workspace/files/content-digest.ts";
import { SignatureError } from "../../src/signing/signature-error.ts";
import { PROJECT_ROOT } from "../support/run-cli.ts";

const BUNDLE_FILE = join(PROJECT_ROOT, "test/cases/interop/library/library-base.bundle.json");
const DIGEST = `sha256:${"ab".repeat(32)}`;

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return error instanceof SignatureError ? error.code : `not a SignatureError: ${error}`;
  }
  return undefined;
}

test("the digest is sha256: and the hex SHA-256 of the exact bytes", () => {
  const bytes = new TextEncoder().encode('{"id": "x"}\n');
  expect(bundleDigest(bytes)).toBe(`sha256:${createHash("sha256").update(bytes).digest("hex")}`);
  expect(bundleDigest(new TextEncoder().encode('{"id":"x"}\n'))).not.toBe(bundleDigest(bytes));
});

test("a bundle file's claims are its id, version and checksum and the digest of its bytes", () => {
  const bytes = readFileSync(BUNDLE_FILE);
  const bundle = JSON.parse(bytes.toString("utf8"));
  expect(claimsOfBundle(bytes, "library-base.bundle.json")).toEqual({
    id: bundle.id,
    version: bundle.version,
    checksum: bundle.checksum,
    digest: bundleDigest(bytes),
  });
});

test("a file that is not a bundle cannot be signed, and the message names it", () => {
  const encode = (text: string) => new TextEncoder().encode(text);
  for (const text of [
    "id: x\nversion: 1.0.0\n",
    "[]",
    '{"id": "x", "version": "1.0.0", "checksum": "sha256:00"}',
    '{"ruleCascadeBundle": "1.0.0", "id": "x", "version": 1, "checksum": "sha256:00"}',
  ])
    expect(codeOf(() => claimsOfBundle(encode(text), "rules/x.json"))).toBe("BUNDLE_NOT_SIGNABLE");
  expect(() => claimsOfBundle(encode("{"), "rules/x.json")).toThrow("rules/x.json is not a bundle");
  expect(codeOf(() => claimsOfBundle(new Uint8Array([0x7b, 0xff, 0x7d]), "x"))).toBe("BUNDLE_NOT_SIGNABLE");
});

test("a payload's claims are read when all four are strings and the digest is a sha256", () => {
  const claims = { id: "a", version: "1.0.0", checksum: "sha256:00", digest: DIGEST };
  expect(readSignatureClaims(claims)).toEqual(claims);
  expect(readSignatureClaims({ ...claims, note: "ignored" })).toEqual(claims);
});

test("a payload that is not four strings or whose digest is not a sha256 is SIGNATURE_INVALID", () => {
  const claims = { id: "a", version: "1.0.0", checksum: "sha256:00", digest: DIGEST };
  for (const payload of [
    null,
    [],
    "claims",
    { ...claims, id: undefined },
    { ...claims, version: 1 },
    { ...claims, checksum: "" },
    { ...claims, digest: DIGEST.toUpperCase() },
    { ...claims, digest: `sha512:${"ab".repeat(32)}` },
    { ...claims, digest: `${DIGEST}0` },
  ])
    expect(codeOf(() => readSignatureClaims(payload))).toBe("SIGNATURE_INVALID");
});
