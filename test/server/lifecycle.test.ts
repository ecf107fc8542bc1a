import { describe, expect, test } from "bun:test";
import { readdirSync, realpathSync, rmSync } from "node:fs";
import { join } from "node:path";
import { rulesDirectory } from "../support/rules-directory.ts";
import { serverEnvironment, startServer, TOKEN } from "../support/server-process.ts";

/** Reload on SIGHUP and the drain on SIGTERM/SIGINT, with real signals. */
const auth = { Authorization: `Bearer ${TOKEN}` };
interface ReadinessBody {
  status: string;
  loadedAt: string;
  rulesets: number;
  lastReload?: { at: string; trigger: string; outcome: string; problems?: { code: string; file?: string }[] };
}
const readiness = async (
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: ReadinessBody }> => {
  const response = await fetch(`${url}/readyz`, { headers });
  return { status: response.status, body: (await response.json()) as ReadinessBody };
};

describe("SIGHUP", () => {
  test("a reload that succeeds swaps the rules in one step and reports a new loadedAt", async () => {
    const rules = rulesDirectory();
    const server = await startServer(serverEnvironment(rules.path));
    try {
      const before = await readiness(server.url);
      const shop = await Bun.file(`${rules.path}/shop-order.ruleset.yaml`).text();
      rules.write("shop-order.ruleset.yaml", shop.replace("default: 100", "default: 200"));
      await Bun.sleep(5);
      server.signal("SIGHUP");
      const line = await server.waitForLog((entry) => entry.msg === "rules reloaded");
      expect(line).toMatchObject({ level: "info", trigger: "SIGHUP" });
      const after = await readiness(server.url);
      expect(after.body.loadedAt > before.body.loadedAt).toBe(true);
      expect(before.body.lastReload).toBeUndefined();
      expect(after.body.lastReload).toEqual({ at: after.body.loadedAt, trigger: "SIGHUP", outcome: "reloaded" });
      const result = (await (
        await fetch(`${server.url}/evaluations`, {
          method: "POST",
          headers: { ...auth, "Content-Type": "application/json" },
          body: JSON.stringify({
            ruleset: "shop.orders.order",
            entity: "Order",
            operation: "create",
            data: { quantity: 150, unitPrice: 1, customer: { email: "a@b.c" } },
          }),
        })
      ).json()) as { decision: string };
      expect(result.decision).toBe("allow");
    } finally {
      await server.kill();
      rules.remove();
    }
  });

  test("a reload that fails keeps serving the previous rules and loadedAt, and logs why", async () => {
    const rules = rulesDirectory();
    const server = await startServer(serverEnvironment(rules.path));
    try {
      const before = await readiness(server.url);
      rules.write(
        "broken.ruleset.yaml",
        "ruleCascade: '1.0.0'\nkind: RuleSet\nmetadata: {id: x, version: 1.0.0, title: X}\nscope: [{level: a, id: b}]\nrules: []\ncomment: x\n",
      );
      server.signal("SIGHUP");
      const line = await server.waitForLog((entry) => String(entry.msg).startsWith("reload refused"));
      expect(line).toMatchObject({
        level: "warn",
        msg: "reload refused, still serving the previous rules",
        trigger: "SIGHUP",
      });
      // The same located problem `check` prints: file, line and column of the unknown member.
      expect(line.problems).toEqual([expect.objectContaining({ code: "SCHEMA_INVALID", line: 6, column: 1 })]);
      expect((line.problems as { file: string }[])[0]!.file).toContain("broken.ruleset.yaml");
      expect(typeof line.reason).toBe("string");
      const after = await readiness(server.url, auth);
      // Still ready on the previous rules; lastReload says the reload was refused, and why.
      const { lastReload, ...unchanged } = after.body;
      expect(after.status).toBe(200);
      expect(unchanged).toEqual(before.body);
      expect(lastReload).toMatchObject({ trigger: "SIGHUP", outcome: "refused" });
      expect(lastReload!.at >= before.body.loadedAt).toBe(true);
      expect(lastReload!.problems![0]).toMatchObject({ code: "SCHEMA_INVALID", file: "broken.ruleset.yaml" });
      // /readyz is public: without the token (or with a wrong one) the refusal's problems are not shown.
      for (const headers of [{}, { Authorization: "Bearer wrong-token-of-some-length" }] as Record<string, string>[]) {
        const anonymous = await readiness(server.url, headers);
        expect(anonymous.status).toBe(200);
        expect(anonymous.body.lastReload).toEqual({ at: lastReload!.at, trigger: "SIGHUP", outcome: "refused" });
      }
      expect((await fetch(`${server.url}/rulesets/shop.orders.order/manifest`)).status).toBe(200);
    } finally {
      await server.kill();
      rules.remove();
    }
  });

  test("a reload that leaves no ruleset is served, with a warn line naming the directory", async () => {
    const rules = rulesDirectory();
    const server = await startServer(serverEnvironment(rules.path));
    try {
      expect(server.logs().some((entry) => String(entry.msg).startsWith("no ruleset"))).toBe(false);
      for (const file of readdirSync(rules.path)) rmSync(join(rules.path, file));
      server.signal("SIGHUP");
      await server.waitForLog((entry) => entry.msg === "rules reloaded");
      const warning = await server.waitForLog((entry) => String(entry.msg).startsWith("no ruleset"));
      expect(warning.level).toBe("warn");
      expect(realpathSync(String(warning.rulesDir))).toBe(realpathSync(rules.path));
      expect((await readiness(server.url)).body.rulesets).toBe(0);
    } finally {
      await server.kill();
      rules.remove();
    }
  });
});

describe("drain", () => {
  test("SIGTERM: readiness 503 at once, service goes on, a request in flight finishes, then exit 0", async () => {
    const rules = rulesDirectory();
    const server = await startServer(serverEnvironment(rules.path, { DRAIN_SECONDS: "1" }));
    try {
      const body = JSON.stringify({
        ruleset: "shop.orders.order",
        entity: "Order",
        operation: "create",
        data: { quantity: 3, unitPrice: 0.1 },
      });
      let controller!: ReadableStreamDefaultController<Uint8Array>;
      const stream = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
      const inFlight = fetch(`${server.url}/evaluations`, {
        method: "POST",
        headers: { ...auth, "Content-Type": "application/json" },
        body: stream,
      });
      controller.enqueue(new TextEncoder().encode(body.slice(0, 20)));
      await Bun.sleep(100);
      server.signal("SIGTERM");
      await server.waitForLog((entry) => entry.msg === "draining");
      const draining = await readiness(server.url);
      expect(draining.status).toBe(503);
      expect(draining.body.status).toBe("draining");
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      expect((await fetch(`${server.url}/rulesets`)).status).toBe(200);
      await Bun.sleep(1300);
      controller.enqueue(new TextEncoder().encode(body.slice(20)));
      controller.close();
      expect((await inFlight).status).toBe(200);
      expect(await server.exited).toBe(0);
      const last = server.logs().at(-1)!;
      expect(last).toMatchObject({ level: "info", msg: "drained, stopped serving" });
    } finally {
      await server.kill();
      rules.remove();
    }
  });

  test("SIGINT drains too, and a second signal ends the drain at once with exit 0", async () => {
    const rules = rulesDirectory();
    const server = await startServer(serverEnvironment(rules.path, { DRAIN_SECONDS: "60" }));
    try {
      server.signal("SIGINT");
      await server.waitForLog((entry) => entry.msg === "draining");
      expect((await readiness(server.url)).status).toBe(503);
      const started = Date.now();
      server.signal("SIGTERM");
      expect(await server.exited).toBe(0);
      expect(Date.now() - started).toBeLessThan(5000);
      expect(server.logs().at(-1)).toMatchObject({
        level: "info",
        msg: "stopped serving, requests in flight were cut",
      });
    } finally {
      await server.kill();
      rules.remove();
    }
  });
});
