import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { customOperatorsFrom } from "../../../src/engine/expression/custom-operators.ts";
import { compileSourceFile } from "../../../src/workspace/compile-source-file.ts";
import {
  readBundleSignatures,
  type SignatureVerifier,
  type SignedClaims,
} from "../../../src/workspace/files/bundle-signatures.ts";
import { loadRulesDirectory } from "../../../src/workspace/load-rules-directory.ts";
import { PROJECT_ROOT } from "../../support/run-cli.ts";

/**
 * With trusted keys, a rules directory loads only bundles whose signature verifies and names the
 * bytes loaded, with the ruleset's id, version and checksum; source documents are refused. The
 * verifier here stands for the trusted keys (test/signing has the real one): a "signature" is
 * `trusted.<kid>.<claims as JSON>`, anything else does not verify.
 */
const verifier: SignatureVerifier = {
  async verify(jws) {
    const [mark, kid, ...claims] = jws.split(".");
    if (mark !== "trusted" || kid === undefined) throw new Error("no trusted key verifies it");
    return { kid, claims: JSON.parse(claims.join(".")) as SignedClaims };
  },
};
const work = mkdtempSync(join(tmpdir(), "bundle-signatures-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const operators = customOperatorsFrom(undefined);

const compiled = compileSourceFile(join(PROJECT_ROOT, "rules", "acme-payments.ruleset.yaml"));
if (!compiled.ok) throw new Error("rules/ does not compile");
const bundleText = `${JSON.stringify(compiled.compiled.bundle, null, 2)}\n`;
const claimsOf = (text: string): SignedClaims => {
  const bundle = JSON.parse(text) as { id: string; version: string; checksum: string };
  const digest = `sha256:${new Bun.CryptoHasher("sha256").update(text).digest("hex")}`;
  return { id: bundle.id, version: bundle.version, checksum: bundle.checksum, digest };
};

let directories = 0;
function directory(files: Record<string, string>): string {
  const path = join(work, String(++directories));
  mkdirSync(path);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(path, name), text);
  return path;
}
async function load(path: string) {
  const loaded = loadRulesDirectory(path, { operators, signatures: await readBundleSignatures(path, verifier) });
  return {
    ids: loaded.rulesets.map((ruleset) => ruleset.ruleset.id),
    problems: loaded.problems.map((problem) => `${problem.code} ${basename(problem.file ?? "-")}: ${problem.message}`),
    signedBy: loaded.signedBy,
  };
}

describe("loading with trusted keys", () => {
  test("a bundle whose signature names its bytes loads, and the key is said", async () => {
    const path = directory({
      "payments.bundle.json": bundleText,
      "payments.bundle.json.sig": `trusted.release-2026.${JSON.stringify(claimsOf(bundleText))}\n`,
    });
    expect(await load(path)).toEqual({ ids: ["acme.payments"], problems: [], signedBy: ["release-2026"] });
  });

  test("a bundle without a signature is SIGNATURE_MISSING", async () => {
    const { problems } = await load(directory({ "payments.bundle.json": bundleText }));
    expect(problems).toEqual([
      "SIGNATURE_MISSING payments.bundle.json: no signature payments.bundle.json.sig beside the bundle: with trusted keys only signed bundles load",
    ]);
  });

  test("a signature no trusted key verifies is SIGNATURE_INVALID", async () => {
    const { problems } = await load(
      directory({ "payments.bundle.json": bundleText, "payments.bundle.json.sig": "forged.x.{}" }),
    );
    expect(problems).toEqual([
      "SIGNATURE_INVALID payments.bundle.json: the signature does not verify: no trusted key verifies it",
    ]);
  });

  test("a bundle changed after it was signed (one byte) is SIGNATURE_INVALID, naming the digest", async () => {
    const tampered = bundleText.replace('"acme.payments"', '"acme.payments" ');
    const { problems, ids } = await load(
      directory({
        "payments.bundle.json": tampered,
        "payments.bundle.json.sig": `trusted.k.${JSON.stringify(claimsOf(bundleText))}`,
      }),
    );
    expect(ids).toEqual([]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toStartWith("SIGNATURE_INVALID payments.bundle.json: the signature (key k) names digest");
  });

  test("a signature of another ruleset's bundle, moved beside this one, is SIGNATURE_INVALID", async () => {
    const claims = { ...claimsOf(bundleText), id: "acme.other" };
    const { problems } = await load(
      directory({
        "payments.bundle.json": bundleText,
        "payments.bundle.json.sig": `trusted.k.${JSON.stringify(claims)}`,
      }),
    );
    expect(problems).toEqual([
      'SIGNATURE_INVALID payments.bundle.json: the signature (key k) names id "acme.other", the bundle has "acme.payments"',
    ]);
  });

  test("a source document is refused, whatever else is there: nothing signed it", async () => {
    const source = readFileSync(join(PROJECT_ROOT, "rules", "customer-onboarding.ruleset.json"), "utf8");
    const { problems } = await load(directory({ "onboarding.ruleset.json": source }));
    expect(problems).toEqual([
      "SOURCE_NOT_SIGNED onboarding.ruleset.json: a source document cannot be signed: with trusted keys only signed bundles load (rule-server compile, then rule-server sign)",
    ]);
  });

  test("without trusted keys nothing is asked of signatures", () => {
    const loaded = loadRulesDirectory(directory({ "payments.bundle.json": bundleText }), { operators });
    expect(loaded.problems).toEqual([]);
    expect(loaded.signedBy).toBeUndefined();
  });
});
