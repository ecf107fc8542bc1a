import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pushRulesArtifact } from "../../../src/oci/rules-artifact.ts";
import { compileSourceFile } from "../../../src/workspace/compile-source-file.ts";
import { CASES_DIR } from "../../support/golden-files.ts";
import {
  serverEnvironment,
  startExpectingFailure,
  startServer,
  TOKEN,
  type ServerProcess,
} from "../../support/server-process.ts";
import { startTestRegistry, type TestRegistry } from "../../support/test-registry.ts";

/**
 * RULES_SOURCE=oci://… (DECISIONS.md, "Signed bundles, pulled from a registry or another server"),
 * against a real registry with basic authentication: the release is pulled at start and on SIGHUP,
 * a tag that did not move loads nothing, a re-push to the tag is served after the next SIGHUP, a
 * registry that is down keeps the rules served, and a cached copy starts a server while it is down.
 */
let registry: TestRegistry;
let server: ServerProcess;
const scratch = mkdtempSync(join(tmpdir(), "rules-from-registry-"));
const cache = join(scratch, "cache");
const encoder = new TextEncoder();

/** The bundle of a case ruleset, as `push` would carry it, compiled with another version. */
function bundleFile(source: string, version: string): { name: string; bytes: Uint8Array } {
  const directory = mkdtempSync(join(scratch, "source-"));
  cpSync(join(CASES_DIR, "server-rules"), directory, { recursive: true });
  const text = readFileSync(join(directory, source), "utf8").replace(/version: 1\.0\.0/, `version: ${version}`);
  writeFileSync(join(directory, source), text);
  const compiled = compileSourceFile(join(directory, source));
  if (!compiled.ok) throw new Error(`${source} does not compile`);
  const bundle = compiled.compiled.bundle;
  return { name: `${String(bundle.id)}.bundle.json`, bytes: encoder.encode(`${JSON.stringify(bundle)}\n`) };
}
const ref = () => `oci://${registry.host}/rules/shop:prod`;
const auth = () => `${registry.credentials.username}:${registry.credentials.password}`;
const push = (version: string) =>
  pushRulesArtifact(ref(), [bundleFile("shop-order.ruleset.yaml", version)], { credentials: registry.credentials });
const pulling = (extra: Record<string, string | undefined> = {}) =>
  serverEnvironment("", { RULES_DIR: undefined, RULES_SOURCE: ref(), RULE_SERVER_REGISTRY_AUTH: auth(), ...extra });
const get = async (path: string, on = server) =>
  (await fetch(`${on.url}${path}`, { headers: { Authorization: `Bearer ${TOKEN}` } })).json() as Promise<any>;
const count = (message: string, on = server) => on.logs().filter((line) => line.msg === message).length;
async function sighup(message: string): Promise<void> {
  const before = count(message);
  server.signal("SIGHUP");
  await server.waitForLog(() => count(message) > before);
}

beforeAll(async () => {
  registry = await startTestRegistry({ auth: "basic" });
});
afterAll(async () => {
  await server?.kill();
  await registry?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

describe("a server pulling from a registry", () => {
  test("serves the release pushed, and names it in /readyz", async () => {
    const { digest } = await push("1.0.0");
    server = await startServer(pulling({ RULES_SOURCE_CACHE: cache }));
    expect((await get("/rulesets")).rulesets.map((r: any) => `${r.id}@${r.version}`)).toEqual([
      "shop.orders.order@1.0.0",
    ]);
    expect((await get("/readyz")).source).toEqual({ kind: "oci", ref: ref(), digest });
    const evaluation = await fetch(`${server.url}/evaluations`, {
      method: "POST",
      headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" },
      body: JSON.stringify({
        ruleset: "shop.orders.order",
        entity: "Order",
        operation: "create",
        data: { quantity: 3, unitPrice: 0.1, customer: { email: "a@b.c" } },
        actor: { id: "u1", roles: ["clerk"] },
      }),
    });
    expect(evaluation.status).toBe(200);
  });

  test("a tag that did not move loads nothing", async () => {
    await sighup("rules source unchanged");
    expect(count("rules reloaded")).toBe(0);
  });

  test("a re-push to the tag is served after the next SIGHUP", async () => {
    const { digest } = await push("1.1.0");
    await sighup("rules reloaded");
    expect((await get("/rulesets")).rulesets[0].version).toBe("1.1.0");
    expect((await get("/readyz")).source.digest).toBe(digest);
  });

  test("the registry down: the reload is refused, the rules served stay, and the pull is counted", async () => {
    const stopped = registry;
    await stopped.stop();
    await sighup("reload refused, still serving the previous rules");
    expect((await get("/rulesets")).rulesets[0].version).toBe("1.1.0");
    const metrics = await (
      await fetch(`${server.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })
    ).text();
    expect(metrics).toContain('rule_server_source_pulls_total{source="oci",outcome="failed"} 1');
    expect(metrics).toContain('rule_server_source_pulls_total{source="oci",outcome="updated"} 2');
    expect(metrics).toContain('rule_server_source_pulls_total{source="oci",outcome="unchanged"} 1');
    await server.kill();
  });

  test("while the registry is down, a new server starts from the cached release and says so; without a cache it does not start", async () => {
    server = await startServer(pulling({ RULES_SOURCE_CACHE: cache }));
    expect((await get("/rulesets")).rulesets[0].version).toBe("1.1.0");
    const warning = server
      .logs()
      .find((line) => line.msg === "the rules source cannot be pulled; starting from the last good copy");
    expect(warning).toMatchObject({ level: "warn", source: ref() });
    await server.kill();
    const { status, logs } = await startExpectingFailure(pulling());
    expect(status).toBe(1);
    expect(logs.find((line) => line.level === "fatal")).toMatchObject({ code: "SOURCE_PULL_FAILED" });
  });
});

test("on RULES_REFRESH=interval, a release pushed to the tag is pulled without a signal, by every serving process", async () => {
  const own = await startTestRegistry({ auth: "basic" });
  const target = `oci://${own.host}/rules/shop:prod`;
  const file = () => bundleFile("shop-order.ruleset.yaml", "2.0.0");
  await pushRulesArtifact(target, [bundleFile("shop-order.ruleset.yaml", "1.0.0")], { credentials: own.credentials });
  const scheduled = await startServer(
    serverEnvironment("", {
      RULES_DIR: undefined,
      RULES_SOURCE: target,
      RULE_SERVER_REGISTRY_AUTH: `${own.credentials.username}:${own.credentials.password}`,
      RULES_REFRESH: "interval",
      RULES_REFRESH_INTERVAL: "1s",
      RULE_SERVER_PROCESSES: "2",
    }),
  );
  try {
    const { digest } = await pushRulesArtifact(target, [file()], { credentials: own.credentials });
    await scheduled.waitForLog((line) => line.msg === "rules reloaded" && line.trigger === "interval");
    // Each connection may reach either process: both serve the new release and name it.
    for (let i = 0; i < 6; i++) {
      const ready = await (await fetch(`${scheduled.url}/readyz`, { headers: { Connection: "close" } })).json();
      expect((ready as any).source).toEqual({ kind: "oci", ref: target, digest });
    }
    // A tag that did not move: asked about every second, nothing loaded, nothing said at info.
    await Bun.sleep(2200);
    expect(scheduled.logs().filter((line) => line.msg === "rules reloaded")).toHaveLength(1);
    expect(scheduled.logs().filter((line) => line.msg === "rules source unchanged")).toHaveLength(0);
  } finally {
    await scheduled.kill();
    await own.stop();
  }
});

test("wrong registry credentials stop the start, and the password is never logged", async () => {
  const other = await startTestRegistry({ auth: "basic" });
  try {
    await pushRulesArtifact(`oci://${other.host}/rules/shop:prod`, [bundleFile("shop-order.ruleset.yaml", "1.0.0")], {
      credentials: other.credentials,
    });
    const { status, output } = await startExpectingFailure(
      serverEnvironment("", {
        RULES_DIR: undefined,
        RULES_SOURCE: `oci://${other.host}/rules/shop:prod`,
        RULE_SERVER_REGISTRY_AUTH: "rules-ci:wrong-password-x",
      }),
    );
    expect(status).toBe(1);
    expect(JSON.parse(output.trim().split("\n").at(-1)!)).toMatchObject({
      level: "fatal",
      fault: "REGISTRY_AUTH_FAILED",
    });
    expect(output).not.toContain("wrong-password-x");
  } finally {
    await other.stop();
  }
});
