import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { rulesDirectory } from "../../support/rules-directory.ts";
import {
  serverEnvironment,
  startExpectingFailure,
  startServer,
  TOKEN,
  type ServerProcess,
} from "../../support/server-process.ts";

/**
 * RULES_SOURCE=http(s)://another rule-server (DECISIONS.md, "Signed bundles, pulled from a registry
 * or another server"): its list and bundles are pulled at start and on SIGHUP, an unchanged list
 * changes nothing, a source that is down keeps the rules served, and a cached last good copy lets a
 * server start while its source is down.
 */
const rules = rulesDirectory();
const scratch = mkdtempSync(join(tmpdir(), "rules-from-server-"));
const cache = join(scratch, "cache");
let upstream: ServerProcess;
let downstream: ServerProcess;

const following = (ref: string, extra: Record<string, string | undefined> = {}) =>
  serverEnvironment("", { RULES_DIR: undefined, RULES_SOURCE: ref, RULES_SOURCE_TOKEN: TOKEN, ...extra });
const get = async (server: ServerProcess, path: string) =>
  (await fetch(`${server.url}${path}`, { headers: { Authorization: `Bearer ${TOKEN}` } })).json() as Promise<
    Record<string, unknown>
  >;
const versions = async (server: ServerProcess) =>
  ((await get(server, "/rulesets")).rulesets as { id: string; version: string }[]).map(
    ({ id, version }) => `${id}@${version}`,
  );
const count = (server: ServerProcess, message: string) => server.logs().filter((line) => line.msg === message).length;
const pulls = async (server: ServerProcess, outcome: string) => {
  const text = await (await fetch(`${server.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })).text();
  const line = text
    .split("\n")
    .find((l) => l.startsWith(`rule_server_source_pulls_total{source="server",outcome="${outcome}"}`));
  return line === undefined ? 0 : Number(line.split(" ").at(-1));
};
async function reloadOf(server: ServerProcess, message: string): Promise<void> {
  const before = count(server, message);
  server.signal("SIGHUP");
  await server.waitForLog(() => count(server, message) > before);
}

beforeAll(async () => {
  upstream = await startServer(serverEnvironment(rules.path));
  downstream = await startServer(following(upstream.url, { RULES_SOURCE_CACHE: cache }));
});
afterAll(async () => {
  await downstream?.kill();
  await upstream?.kill();
  rules.remove();
  rmSync(scratch, { recursive: true, force: true });
});

describe("a server that follows another", () => {
  test("serves what the other serves, bundle for bundle, and says where it came from", async () => {
    expect(await versions(downstream)).toEqual(await versions(upstream));
    for (const id of ["shop.orders.order", "library.loans"]) {
      const [theirs, ours] = await Promise.all([upstream, downstream].map((s) => get(s, `/rulesets/${id}/bundle`)));
      expect(ours).toEqual(theirs);
    }
    const ready = await get(downstream, "/readyz");
    expect(ready.source).toEqual({
      kind: "server",
      ref: upstream.url,
      digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
    });
    expect((await get(upstream, "/readyz")).source).toEqual({ kind: "directory", ref: rules.path });
    expect(await pulls(downstream, "updated")).toBe(1);
  });

  test("a SIGHUP with nothing new at the other server loads nothing", async () => {
    await reloadOf(downstream, "rules source unchanged");
    expect(count(downstream, "rules reloaded")).toBe(0);
    expect(await pulls(downstream, "unchanged")).toBe(1);
  });

  test("a change the other server reloaded is pulled on the next SIGHUP", async () => {
    const before = (await get(downstream, "/readyz")).source as { digest: string };
    rules.write(
      "shop-order.ruleset.yaml",
      readFileSync(join(rules.path, "shop-order.ruleset.yaml"), "utf8").replace("version: 1.0.0", "version: 1.0.1"),
    );
    await reloadOf(upstream, "rules reloaded");
    await reloadOf(downstream, "rules reloaded");
    expect(await versions(downstream)).toContain("shop.orders.order@1.0.1");
    const after = (await get(downstream, "/readyz")).source as { digest: string };
    expect(after.digest).not.toBe(before.digest);
  });

  test("the other server down: the reload is refused and the rules served stay", async () => {
    await upstream.kill();
    await reloadOf(downstream, "reload refused, still serving the previous rules");
    expect(await versions(downstream)).toContain("shop.orders.order@1.0.1");
    const ready = await get(downstream, "/readyz");
    expect(ready.status).toBe("ready");
    expect((ready.lastReload as { outcome: string }).outcome).toBe("refused");
    expect(await pulls(downstream, "failed")).toBe(1);
  });

  test("a server starting while its source is down starts from the cached copy, and says so", async () => {
    const second = await startServer(following(upstream.url, { RULES_SOURCE_CACHE: cache }));
    try {
      expect(await versions(second)).toContain("shop.orders.order@1.0.1");
      const warning = await second.waitForLog(
        (line) => line.msg === "the rules source cannot be pulled; starting from the last good copy",
      );
      expect(warning.level).toBe("warn");
      expect(warning.reason).toContain("cannot be reached");
    } finally {
      await second.kill();
    }
  });

  test("without a cached copy, a source that is down stops the start", async () => {
    const { status, logs } = await startExpectingFailure(following(upstream.url));
    expect(status).toBe(1);
    expect(logs.find((line) => line.level === "fatal")).toMatchObject({
      msg: "the rules source cannot be pulled, and no last good copy is cached",
      code: "SOURCE_PULL_FAILED",
      source: upstream.url,
    });
  });
});

test("a wrong token for the other server stops the start with its answer", async () => {
  const other = await startServer(serverEnvironment(rules.path));
  try {
    const { status, logs } = await startExpectingFailure(
      following(other.url, { RULES_SOURCE_TOKEN: "wrong-token-0123456789" }),
    );
    expect(status).toBe(1);
    expect(String(logs.find((line) => line.level === "fatal")?.reason)).toContain("answered 401");
  } finally {
    await other.kill();
  }
});
