import { afterAll, describe, expect, test } from "bun:test";
import { readdirSync, realpathSync, rmSync } from "node:fs";
import { join } from "node:path";
import { rulesDirectory } from "../support/rules-directory.ts";
import { serverEnvironment, startExpectingFailure, startServer, TOKEN } from "../support/server-process.ts";

/** Start-ups that must fail, with a fatal line and exit status 1, and the two authentication modes. */
const rules = rulesDirectory();
afterAll(() => rules.remove());

describe("start-ups that must fail before listening", () => {
  const cases: [string, Record<string, string | undefined>][] = [
    ["no token and open mode not enabled", { RULE_SERVER_TOKEN: undefined }],
    ["an empty token counts as unset", { RULE_SERVER_TOKEN: "" }],
    [
      "RULE_SERVER_ALLOW_OPEN other than 1 or true does not enable open mode",
      { RULE_SERVER_TOKEN: undefined, RULE_SERVER_ALLOW_OPEN: "yes" },
    ],
    ["PORT not an integer", { PORT: "http" }],
    ["PORT above 65535", { PORT: "70000" }],
    ["DRAIN_SECONDS negative", { DRAIN_SECONDS: "-1" }],
    ["RULE_SERVER_WORKERS not an integer", { RULE_SERVER_WORKERS: "two" }],
    ["RULE_EVALUATION_TIMEOUT_MS zero", { RULE_EVALUATION_TIMEOUT_MS: "0" }],
    ["RULE_SERVER_BATCH_MAX_ITEMS zero", { RULE_SERVER_BATCH_MAX_ITEMS: "0" }],
    ["RULE_SERVER_BATCH_MAX_BYTES above the HTTP layer's 128 MiB", { RULE_SERVER_BATCH_MAX_BYTES: "134217729" }],
    ["RULES_REFRESH unknown", { RULES_REFRESH: "sometimes" }],
  ];
  for (const [name, env] of cases) {
    test(name, async () => {
      const run = await startExpectingFailure(serverEnvironment(rules.path, env));
      expect(run.status).toBe(1);
      expect(run.logs.some((line) => line.msg === "listening")).toBe(false);
      expect(run.logs.at(-1)!.level).toBe("fatal");
    });
  }

  test("the token rule is checked before any rules load", async () => {
    const run = await startExpectingFailure(serverEnvironment("/nonexistent/rules", { RULE_SERVER_TOKEN: undefined }));
    expect(run.status).toBe(1);
    expect(JSON.stringify(run.logs)).not.toContain("RULES_DIR_UNREADABLE");
    expect(JSON.stringify(run.logs)).toContain("token");
  });

  test("without a token the fatal line names the environment variables, not the embedding options", async () => {
    const run = await startExpectingFailure(serverEnvironment(rules.path, { RULE_SERVER_TOKEN: undefined }));
    const problems = JSON.stringify(run.logs.at(-1)!.problems);
    expect(problems).toContain("RULE_SERVER_TOKEN is not set");
    expect(problems).toContain("RULE_SERVER_ALLOW_OPEN=1");
    expect(problems).not.toContain("allowOpen");
    expect(problems).not.toContain("token option");
  });

  test("a rules directory holding no ruleset starts, with a warn line naming the directory", async () => {
    const empty = rulesDirectory();
    try {
      for (const file of readdirSync(empty.path)) rmSync(join(empty.path, file));
      const server = await startServer(serverEnvironment(empty.path));
      try {
        const warning = server
          .logs()
          .find((line) => line.level === "warn" && String(line.msg).startsWith("no ruleset"))!;
        expect(warning).toBeDefined();
        expect(realpathSync(String(warning.rulesDir))).toBe(realpathSync(empty.path));
        expect(server.logs().indexOf(warning) < server.logs().findIndex((line) => line.msg === "listening")).toBe(true);
      } finally {
        await server.kill();
      }
    } finally {
      empty.remove();
    }
  });

  const badRules: [string, Record<string, string>, string][] = [
    [
      "a ruleset that fails a load check",
      { "broken.ruleset.yaml": "ruleCascade: '1.0.0'\nkind: RuleSet\n" },
      "SCHEMA_INVALID",
    ],
    ["an unusable bundle", { "bad.bundle.json": '{"ruleCascadeBundle":"2.0.0","manifests":{}}' }, "BUNDLE_UNSUPPORTED"],
    ["a bad cache policy", { "cache-policy.yaml": "default: { mode: sometimes }\n" }, "CACHE_POLICY_INVALID"],
    [
      "a cache policy for a ruleset that is not served",
      { "cache-policy.json": '{"rulesets":{"nope":{"mode":"revalidate"}}}' },
      "CACHE_POLICY_INVALID",
    ],
    [
      "two cache policy files",
      { "cache-policy.yaml": "default: { mode: revalidate }\n", "cache-policy.json": "{}" },
      "CACHE_POLICY_INVALID",
    ],
    ["a ruleset id defined by two files", { "again.ruleset.yaml": "" }, "RULESET_DUPLICATE"],
    ["a child whose parent is only a bundle", { "child.ruleset.yaml": "" }, "EXTENDS_NOT_FOUND"],
  ];
  for (const [name, files, code] of badRules) {
    test(`${name}: the problems are logged and the process exits 1`, async () => {
      const dir = rulesDirectory();
      try {
        const shop = await Bun.file(`${dir.path}/shop-order.ruleset.yaml`).text();
        for (const [file, text] of Object.entries(files)) {
          if (file === "again.ruleset.yaml") dir.write(file, shop);
          else if (file === "child.ruleset.yaml")
            dir.write(
              file,
              shop
                .replace("id: shop.orders.order", "id: shop.orders.child")
                .replace("scope:", "extends:\n  - ruleset: shop.orders.bundled\n    version: 1.0.0\nscope:"),
            );
          else dir.write(file, text);
        }
        const run = await startExpectingFailure(serverEnvironment(dir.path));
        expect(run.status).toBe(1);
        const fatal = run.logs.find((line) => line.level === "fatal")!;
        expect(JSON.stringify(fatal.problems)).toContain(code);
        expect(run.logs.some((line) => line.msg === "listening")).toBe(false);
      } finally {
        dir.remove();
      }
    });
  }
});

test("the fatal line locates each problem of a refused ruleset: file, line, column and rule", async () => {
  const dir = rulesDirectory();
  try {
    const shop = await Bun.file(`${dir.path}/shop-order.ruleset.yaml`).text();
    const broken = shop
      .replace("id: shop.orders.order", "id: shop.orders.broken")
      .replace(/\{ var: params\.maxQuantity \}/, "{ var: params.maxQuantiy }");
    dir.write("broken.ruleset.yaml", broken);
    const run = await startExpectingFailure(serverEnvironment(dir.path));
    expect(run.status).toBe(1);
    const fatal = run.logs.find((line) => line.level === "fatal")!;
    const lines = broken.split("\n");
    const line = lines.findIndex((text) => text.includes("params.maxQuantiy")) + 1;
    const column = lines[line - 1]!.indexOf("params.maxQuantiy") + 1;
    expect(fatal.problems).toContainEqual(
      expect.objectContaining({
        code: "PARAM_UNDECLARED",
        line,
        column,
        file: expect.stringContaining("broken.ruleset.yaml"),
      }),
    );
  } finally {
    dir.remove();
  }
});

describe("authentication modes", () => {
  test("open mode: a warn line, the listen line marks auth open, protected endpoints need no token", async () => {
    const server = await startServer(
      serverEnvironment(rules.path, { RULE_SERVER_TOKEN: undefined, RULE_SERVER_ALLOW_OPEN: "1" }),
    );
    try {
      expect(server.logs().some((line) => line.level === "warn" && String(line.msg).includes("open mode"))).toBe(true);
      expect(server.logs().find((line) => line.msg === "listening")).toMatchObject({
        auth: "open",
        rulesets: 4,
        workers: 0,
        refresh: "manual",
      });
      expect((await fetch(`${server.url}/rulesets/shop.orders.order/bundle`)).status).toBe(200);
    } finally {
      await server.kill();
    }
  });
  test("a token with RULE_SERVER_ALLOW_OPEN: the token is required and a warn line says open mode is ignored", async () => {
    const server = await startServer(serverEnvironment(rules.path, { RULE_SERVER_ALLOW_OPEN: "true" }));
    try {
      expect(server.logs().some((line) => line.level === "warn" && String(line.msg).includes("ignored"))).toBe(true);
      expect(server.logs().find((line) => line.msg === "listening")!.auth).toBe("token");
      expect((await fetch(`${server.url}/rulesets/shop.orders.order/bundle`)).status).toBe(401);
      expect(
        (
          await fetch(`${server.url}/rulesets/shop.orders.order/bundle`, {
            headers: { Authorization: `Bearer ${TOKEN}` },
          })
        ).status,
      ).toBe(200);
    } finally {
      await server.kill();
    }
  });
  test("a token shorter than 16 characters is accepted with a warn line; a long one gets none", async () => {
    const short = await startServer(serverEnvironment(rules.path, { RULE_SERVER_TOKEN: "change-me" }));
    try {
      const warning = short
        .logs()
        .find((line) => line.level === "warn" && String(line.msg).includes("shorter than 16"));
      expect(warning).toMatchObject({ length: 9 });
      // The warning never shows the token itself.
      expect(JSON.stringify(short.logs())).not.toContain("change-me");
      expect(
        (
          await fetch(`${short.url}/rulesets/shop.orders.order/bundle`, {
            headers: { Authorization: "Bearer change-me" },
          })
        ).status,
      ).toBe(200);
    } finally {
      await short.kill();
    }
    const long = await startServer(serverEnvironment(rules.path));
    try {
      expect(long.logs().some((line) => String(line.msg).includes("shorter than"))).toBe(false);
    } finally {
      await long.kill();
    }
  });
  test("the listen line carries the real port when PORT is 0", async () => {
    const server = await startServer(serverEnvironment(rules.path));
    try {
      expect(server.port).toBeGreaterThan(0);
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    } finally {
      await server.kill();
    }
  });
});
