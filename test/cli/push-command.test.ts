import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RegistryClient } from "../../src/oci/registry-client.ts";
import { pullRulesArtifact } from "../../src/oci/rules-artifact.ts";
import { generateKeyPair } from "../../src/signing/key-pair.ts";
import { TrustedKeys } from "../../src/signing/trusted-keys.ts";
import { PROJECT_ROOT, runCli } from "../support/run-cli.ts";
import { startTestRegistry, type TestRegistry } from "../support/test-registry.ts";

/**
 * `rule-server push` (DECISIONS.md, "Signed bundles"): the rules load and their golden tests pass,
 * or nothing is pushed; each bundle and its signature are layers of one artifact, pulled back byte
 * for byte; the registry's credentials come from RULE_SERVER_REGISTRY_AUTH.
 */
let registry: TestRegistry;
const scratch = mkdtempSync(join(tmpdir(), "push-command-"));
const keyFile = join(scratch, "release.pem");
const publicKeyFile = join(scratch, "release.pub.pem");
let kid: string;

beforeAll(async () => {
  registry = await startTestRegistry({ auth: "basic" });
  const pair = await generateKeyPair();
  writeFileSync(keyFile, pair.privateKeyPem);
  writeFileSync(publicKeyFile, pair.publicKeyPem);
  kid = pair.kid;
});
afterAll(async () => {
  await registry?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

const env = () => ({
  ...process.env,
  RULE_SERVER_REGISTRY_AUTH: `${registry.credentials.username}:${registry.credentials.password}`,
});
const push = (args: string[], environment: Record<string, string | undefined> = env()) =>
  runCli(["push", ...args], "", { env: environment });

describe("push", () => {
  test("pushes each bundle of rules/ signed by the key, and prints the digest", async () => {
    const ref = `oci://${registry.host}/rules/example:v1`;
    const run = await push(["rules/", ref, "--key", keyFile]);
    expect(run.stderr).toContain(`3 ruleset(s), signed by ${kid}`);
    expect(run.status).toBe(0);
    const [, pushedRef, digest] = run.stdout.trim().split(" ");
    expect(pushedRef).toBe(ref);
    const pulled = await pullRulesArtifact(ref, { credentials: registry.credentials });
    if (pulled.unchanged) throw new Error("unchanged");
    expect(pulled.digest).toBe(digest!);
    expect(pulled.files.map((file) => file.name).sort()).toEqual([
      "acme.customers.onboarding.bundle.json",
      "acme.customers.onboarding.bundle.json.sig",
      "acme.payments.bundle.json",
      "acme.payments.bundle.json.sig",
      "acme.payments.transfers.bundle.json",
      "acme.payments.transfers.bundle.json.sig",
    ]);
    const keys = await TrustedKeys.read(publicKeyFile);
    const compiled = await runCli(["compile", "rules/acme-payments.ruleset.yaml"]);
    const bundle = pulled.files.find((file) => file.name === "acme.payments.bundle.json")!;
    expect(new TextDecoder().decode(bundle.bytes)).toBe(compiled.stdout);
    const signature = pulled.files.find((file) => file.name === "acme.payments.bundle.json.sig")!;
    const verified = await keys.verify(new TextDecoder().decode(signature.bytes));
    expect(verified.kid).toBe(kid);
    expect(verified.claims.digest).toBe(`sha256:${new Bun.CryptoHasher("sha256").update(bundle.bytes).digest("hex")}`);
  });

  test("without a key the bundles go unsigned", async () => {
    const run = await push(["rules/acme-payments.ruleset.yaml", `oci://${registry.host}/rules/unsigned:v1`]);
    expect(run.status).toBe(0);
    const pulled = await pullRulesArtifact(`oci://${registry.host}/rules/unsigned:v1`, {
      credentials: registry.credentials,
    });
    expect(pulled.unchanged ? [] : pulled.files.map((file) => file.name)).toEqual(["acme.payments.bundle.json"]);
  });

  test("a failing golden test pushes nothing", async () => {
    const rules = join(scratch, "failing");
    cpSync(join(PROJECT_ROOT, "rules"), rules, { recursive: true });
    const file = join(rules, "acme-payments-transfers.ruleset.yaml");
    writeFileSync(file, readFileSync(file, "utf8").replace("decision: allow", "decision: deny"));
    const run = await push([rules, `oci://${registry.host}/rules/failing:v1`, "--key", keyFile]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("GOLDEN_TEST_FAILED");
    expect(run.stderr).toContain("nothing pushed");
    const client = new RegistryClient(
      { registry: registry.host, plainHttp: true },
      { credentials: registry.credentials },
    );
    await expect(client.manifestDigest("rules/failing", "v1")).rejects.toMatchObject({ code: "MANIFEST_NOT_FOUND" });
  });

  test("wrong credentials: the registry's refusal, and no password in it", async () => {
    const run = await push(["rules/", `oci://${registry.host}/rules/example:v2`], {
      ...process.env,
      RULE_SERVER_REGISTRY_AUTH: "rules-ci:not-the-password",
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("REGISTRY_AUTH_FAILED");
    expect(run.stderr).not.toContain("not-the-password");
  });

  test("a key that cannot sign, a target that is not a tag, no target at all", async () => {
    const notAKey = join(scratch, "not-a-key.pem");
    writeFileSync(notAKey, "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n");
    const bad = await push(["rules/", `oci://${registry.host}/rules/example:v3`, "--key", notAKey]);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain("SIGNING_KEY_INVALID");
    expect((await push(["rules/", `oci://${registry.host}/rules/example@sha256:${"0".repeat(64)}`])).status).toBe(2);
    expect((await push(["rules/"])).status).toBe(2);
  });
});
