import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateKeyPair } from "../../src/signing/key-pair.ts";
import { runCli } from "../support/run-cli.ts";

/**
 * `check --trusted-keys` (or RULE_SERVER_TRUSTED_KEYS) says what a server with those keys says of the
 * same files: sources are refused, bundles need a signature by a trusted key naming their bytes.
 */
const scratch = mkdtempSync(join(tmpdir(), "check-trusted-keys-"));
const signed = join(scratch, "signed");
const keys = { trusted: join(scratch, "trusted"), other: join(scratch, "other") };

beforeAll(async () => {
  for (const prefix of Object.values(keys)) {
    const pair = await generateKeyPair();
    writeFileSync(`${prefix}.pem`, pair.privateKeyPem);
    writeFileSync(`${prefix}.pub.pem`, pair.publicKeyPem);
  }
  mkdirSync(signed);
  for (const name of ["acme-payments", "acme-payments-transfers"])
    await runCli(["compile", `rules/${name}.ruleset.yaml`, "-o", join(signed, `${name}.bundle.json`)]);
  const run = await runCli([
    "sign",
    "--key",
    `${keys.trusted}.pem`,
    join(signed, "acme-payments.bundle.json"),
    join(signed, "acme-payments-transfers.bundle.json"),
  ]);
  if (run.status !== 0) throw new Error(run.stderr);
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const codes = (text: string) => [...text.matchAll(/: ([A-Z_]+) /g)].map((match) => match[1]);

describe("check with trusted keys", () => {
  test("bundles signed by a trusted key pass", async () => {
    const run = await runCli(["check", signed, "--trusted-keys", `${keys.trusted}.pub.pem`]);
    expect(run.stdout).toContain("0 problem(s)");
    expect(run.status).toBe(0);
  });

  test("source documents are refused, as the server refuses them", async () => {
    const run = await runCli(["check", "rules/", "--trusted-keys", `${keys.trusted}.pub.pem`]);
    expect(run.status).toBe(1);
    expect(codes(run.stdout).filter((code) => code === "SOURCE_NOT_SIGNED")).toHaveLength(3);
  });

  test("another key's signatures, a bundle changed after signing, a bundle without a signature", async () => {
    expect(codes((await runCli(["check", signed, "--trusted-keys", `${keys.other}.pub.pem`])).stdout)).toEqual([
      "SIGNATURE_INVALID",
      "SIGNATURE_INVALID",
    ]);
    const changed = join(scratch, "changed");
    mkdirSync(changed);
    await runCli(["compile", "rules/acme-payments.ruleset.yaml", "-o", join(changed, "acme-payments.bundle.json")]);
    await runCli([
      "compile",
      "rules/acme-payments-transfers.ruleset.yaml",
      "-o",
      join(changed, "transfers.bundle.json"),
    ]);
    await runCli(["sign", "--key", `${keys.trusted}.pem`, join(changed, "acme-payments.bundle.json")]);
    appendFileSync(join(changed, "acme-payments.bundle.json"), " ");
    const run = await runCli(["check", changed, "--trusted-keys", `${keys.trusted}.pub.pem`]);
    expect(run.status).toBe(1);
    expect(codes(run.stdout).sort()).toEqual(["SIGNATURE_INVALID", "SIGNATURE_MISSING"]);
  });

  test("RULE_SERVER_TRUSTED_KEYS in the environment counts as the server counts it", async () => {
    const run = await runCli(["check", "rules/"], "", {
      env: { ...process.env, RULE_SERVER_TRUSTED_KEYS: `${keys.trusted}.pub.pem` },
    });
    expect(run.status).toBe(1);
    expect(codes(run.stdout)).toContain("SOURCE_NOT_SIGNED");
  });

  test("keys that cannot be read stop the check with their code", async () => {
    const run = await runCli(["check", signed, "--trusted-keys", join(scratch, "missing.pub.pem")]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("TRUSTED_KEYS_INVALID");
  });
});
