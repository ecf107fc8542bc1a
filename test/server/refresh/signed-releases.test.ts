import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pullRulesArtifact, pushRulesArtifact } from "../../../src/oci/rules-artifact.ts";
import { generateKeyPair } from "../../../src/signing/key-pair.ts";
import { runCli } from "../../support/run-cli.ts";
import {
  serverEnvironment,
  startExpectingFailure,
  startServer,
  TOKEN,
  type ServerProcess,
} from "../../support/server-process.ts";
import { startTestRegistry, type TestRegistry } from "../../support/test-registry.ts";

/**
 * RULE_SERVER_TRUSTED_KEYS (DECISIONS.md, "Signed bundles"): only bundles signed by a trusted key
 * load, from a registry, from another server, or from RULES_DIR; a release signed by another key, a
 * layer changed after signing, or a source document is refused, and the rules served stay.
 */
let registry: TestRegistry;
const scratch = mkdtempSync(join(tmpdir(), "signed-releases-"));
const keys = { release: join(scratch, "release"), other: join(scratch, "other") };
const kids: Record<string, string> = {};
const servers: ServerProcess[] = [];

beforeAll(async () => {
  registry = await startTestRegistry();
  for (const [name, prefix] of Object.entries(keys)) {
    const pair = await generateKeyPair(name === "other" ? "ES256" : "EdDSA");
    writeFileSync(`${prefix}.pem`, pair.privateKeyPem);
    writeFileSync(`${prefix}.pub.pem`, pair.publicKeyPem);
    kids[name] = pair.kid;
  }
});
afterAll(async () => {
  for (const server of servers) await server.kill();
  await registry?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

const ref = (tag: string) => `oci://${registry.host}/rules/example:${tag}`;
async function push(tag: string, key: string): Promise<string> {
  const run = await runCli(["push", "rules/", ref(tag), "--key", `${key}.pem`]);
  if (run.status !== 0) throw new Error(run.stderr);
  return run.stdout.trim().split(" ")[2]!;
}
async function start(env: Record<string, string | undefined>): Promise<ServerProcess> {
  const server = await startServer(
    serverEnvironment("", { RULE_SERVER_TRUSTED_KEYS: `${keys.release}.pub.pem`, ...env }),
  );
  servers.push(server);
  return server;
}
const readyz = async (server: ServerProcess) =>
  (await fetch(`${server.url}/readyz`, { headers: { Authorization: `Bearer ${TOKEN}` } })).json() as Promise<any>;
async function refusedReload(server: ServerProcess): Promise<any> {
  const before = server.logs().filter((line) => line.msg === "reload refused, still serving the previous rules").length;
  server.signal("SIGHUP");
  return server
    .waitForLog(
      () =>
        server.logs().filter((line) => line.msg === "reload refused, still serving the previous rules").length > before,
    )
    .then(() =>
      server
        .logs()
        .filter((line) => line.msg === "reload refused, still serving the previous rules")
        .at(-1),
    );
}

describe("from a registry, with trusted keys", () => {
  let server: ServerProcess;
  let served: string;

  test("a release signed by the trusted key is served, and /readyz names the key", async () => {
    served = await push("prod", keys.release);
    server = await start({ RULES_DIR: undefined, RULES_SOURCE: ref("prod") });
    expect((await readyz(server)).source).toEqual({
      kind: "oci",
      ref: ref("prod"),
      digest: served,
      signedBy: [kids.release],
    });
  });

  test("a release signed by another key is refused on SIGHUP; the trusted one stays", async () => {
    await push("prod", keys.other);
    const refused = await refusedReload(server);
    expect(refused.problems.map((problem: any) => problem.code)).toEqual([
      "SIGNATURE_INVALID",
      "SIGNATURE_INVALID",
      "SIGNATURE_INVALID",
    ]);
    expect((await readyz(server)).source.digest).toBe(served);
  });

  test("a layer changed after it was signed (one byte more) is refused", async () => {
    await push("prod", keys.release);
    const pulled = await pullRulesArtifact(ref("prod"));
    if (pulled.unchanged) throw new Error("unchanged");
    const files = pulled.files.map((file) =>
      file.name === "acme.payments.bundle.json"
        ? { name: file.name, bytes: new TextEncoder().encode(`${new TextDecoder().decode(file.bytes)} `) }
        : file,
    );
    await pushRulesArtifact(ref("prod"), files);
    const refused = await refusedReload(server);
    expect(refused.problems).toHaveLength(1);
    expect(refused.problems[0]).toMatchObject({
      code: "SIGNATURE_INVALID",
      message: expect.stringContaining("names digest"),
    });
    // /readyz names the file within the release, not where the server keeps its copy.
    expect((await readyz(server)).lastReload.problems[0].file).toBe("acme.payments.bundle.json");
  });
});

describe("from RULES_DIR, with trusted keys", () => {
  test("source documents do not load: the start stops with SOURCE_NOT_SIGNED for each", async () => {
    const { status, logs } = await startExpectingFailure(
      serverEnvironment(join(import.meta.dir, "..", "..", "..", "rules"), {
        RULE_SERVER_TRUSTED_KEYS: `${keys.release}.pub.pem`,
      }),
    );
    expect(status).toBe(1);
    const fatal = logs.find((line) => line.level === "fatal") as { problems: { code: string }[] };
    expect(fatal.problems.map((problem) => problem.code)).toEqual([
      "SOURCE_NOT_SIGNED",
      "SOURCE_NOT_SIGNED",
      "SOURCE_NOT_SIGNED",
    ]);
  });

  test("compiled and signed bundles load, and a server following it verifies them with its own trusted keys", async () => {
    const directory = join(scratch, "signed");
    mkdirSync(directory);
    for (const source of ["acme-payments.ruleset.yaml", "acme-payments-transfers.ruleset.yaml"]) {
      const file = join(directory, source.replace(".ruleset.yaml", ".bundle.json"));
      expect((await runCli(["compile", `rules/${source}`, "-o", file])).status).toBe(0);
    }
    const signed = await runCli([
      "sign",
      "--key",
      `${keys.release}.pem`,
      ...["acme-payments", "acme-payments-transfers"].map((name) => join(directory, `${name}.bundle.json`)),
    ]);
    expect(signed.status).toBe(0);
    // Two serving processes: what the supervisor loaded signed reaches them with its bytes and signature.
    const upstream = await start({ RULES_DIR: directory, RULE_SERVER_PROCESSES: "2" });
    expect((await readyz(upstream)).source).toEqual({ kind: "directory", ref: directory, signedBy: [kids.release] });
    const bundle = await fetch(`${upstream.url}/rulesets/acme.payments/bundle`, {
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    expect(await bundle.text()).toBe(readFileSync(join(directory, "acme-payments.bundle.json"), "utf8"));
    expect(bundle.headers.get("Rule-Cascade-Signature")).toBe(
      readFileSync(join(directory, "acme-payments.bundle.json.sig"), "utf8").trim(),
    );
    const follower = await start({ RULES_DIR: undefined, RULES_SOURCE: upstream.url, RULES_SOURCE_TOKEN: TOKEN });
    expect((await readyz(follower)).source).toMatchObject({ kind: "server", signedBy: [kids.release] });
    const untrusting = await startExpectingFailure(
      serverEnvironment("", {
        RULES_DIR: undefined,
        RULES_SOURCE: upstream.url,
        RULES_SOURCE_TOKEN: TOKEN,
        RULE_SERVER_TRUSTED_KEYS: `${keys.other}.pub.pem`,
      }),
    );
    expect(untrusting.status).toBe(1);
  });
});

test("a release that does not verify at start-up: the last good copy is served, and the log says which was refused", async () => {
  const cache = join(scratch, "cache-fallback");
  const good = await push("fallback", keys.release);
  const first = await start({ RULES_DIR: undefined, RULES_SOURCE: ref("fallback"), RULES_SOURCE_CACHE: cache });
  await first.kill();
  const untrusted = await push("fallback", keys.other);
  const second = await start({ RULES_DIR: undefined, RULES_SOURCE: ref("fallback"), RULES_SOURCE_CACHE: cache });
  expect((await readyz(second)).source.digest).toBe(good);
  const warning = await second.waitForLog(
    (line) => line.msg === "the release pulled does not load; starting from the last good copy",
  );
  expect(warning).toMatchObject({ level: "warn", refused: untrusted, digest: good });
  // Without a last good copy, the same release stops the start.
  const { status } = await startExpectingFailure(
    serverEnvironment("", {
      RULES_DIR: undefined,
      RULES_SOURCE: ref("fallback"),
      RULE_SERVER_TRUSTED_KEYS: `${keys.release}.pub.pem`,
    }),
  );
  expect(status).toBe(1);
});
