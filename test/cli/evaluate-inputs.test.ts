import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CASES_DIR } from "../support/golden-files.ts";
import { runCli } from "../support/run-cli.ts";
import { temporaryDirectory } from "../support/temp-directory.ts";

/**
 * `rule-server evaluate`'s inputs: a file that cannot be read is one line naming it and the
 * system's reason (never a stack trace), and the request's `ruleset` member picks the ruleset among
 * those given, as `POST /evaluations` does, a directory holding several.
 */
const shopDir = join(CASES_DIR, "interop", "shop");
const shopSource = join(shopDir, "shop-order.ruleset.yaml");
const shopBundle = join(shopDir, "shop-order.bundle.json");
const shopText = readFileSync(shopSource, "utf8");
const order = {
  entity: "Order",
  operation: "create",
  data: { quantity: 3, unitPrice: 0.1, customer: { email: "a@b.c" } },
};
const tooMany = { ...order, data: { ...order.data, quantity: 150 } };

// Two rulesets side by side: the shop's, and one like it whose limit is 200 items, not 100.
const twoRulesets = temporaryDirectory({
  "order.schema.json": readFileSync(join(shopDir, "order.schema.json"), "utf8"),
  "shop.ruleset.yaml": shopText,
  "bulk.ruleset.yaml": shopText
    .replace("id: shop.orders.order", "id: shop.orders.bulk")
    .replace("default: 100", "default: 200"),
});
const scratch = temporaryDirectory({ "order.request.json": JSON.stringify(order) });
afterAll(() => {
  twoRulesets.remove();
  scratch.remove();
});

/** The one line a refused run writes, checked to be one line and free of stack frames. */
function oneLine(stderr: string): string {
  expect(stderr).not.toMatch(/^\s+at /m);
  expect(stderr.trimEnd().split("\n")).toHaveLength(1);
  return stderr.trimEnd();
}

describe("a file that cannot be read", () => {
  test("a missing request file: one line naming it and the system's reason, exit 1", async () => {
    const missing = join(scratch.path, "missing.json");
    const run = await runCli(["evaluate", shopBundle, missing]);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    expect(oneLine(run.stderr)).toBe(
      `rule-server evaluate: FILE_UNREADABLE: cannot read the request file ${missing}: no such file or directory (ENOENT)`,
    );
  });

  test("a request file that is a directory: one line, with --lines too", async () => {
    for (const extra of [[], ["--lines"]]) {
      const run = await runCli(["evaluate", shopBundle, scratch.path, ...extra]);
      expect(run.status).toBe(1);
      expect(oneLine(run.stderr)).toContain(`cannot read the request file ${scratch.path}:`);
    }
  });

  test("a missing request file with --lines: the same line", async () => {
    const missing = join(scratch.path, "missing.jsonl");
    const run = await runCli(["evaluate", shopBundle, missing, "--lines"]);
    expect(run.status).toBe(1);
    expect(oneLine(run.stderr)).toBe(
      `rule-server evaluate: FILE_UNREADABLE: cannot read the request file ${missing}: no such file or directory (ENOENT)`,
    );
  });

  test("a missing bundle, ruleset source or rules file: one line naming what it was to be", async () => {
    const request = join(scratch.path, "order.request.json");
    const cases = [
      { args: [join(scratch.path, "missing.bundle.json")], role: "the bundle" },
      { args: ["--bundle", join(scratch.path, "missing.json")], role: "the bundle" },
      { args: [join(scratch.path, "missing.ruleset.yaml")], role: "the ruleset source" },
      { args: ["--ruleset", join(scratch.path, "missing.yaml")], role: "the ruleset source" },
      { args: [join(scratch.path, "missing")], role: "the rules file" },
    ];
    for (const { args, role } of cases) {
      const run = await runCli(["evaluate", ...args, request]);
      expect(run.status).toBe(1);
      expect(oneLine(run.stderr)).toBe(
        `rule-server evaluate: FILE_UNREADABLE: cannot read ${role} ${args.at(-1)}: no such file or directory (ENOENT)`,
      );
    }
  });

  test("a request on standard input that is not JSON: one line saying where it came from", async () => {
    const run = await runCli(["evaluate", shopBundle, "-"], "{not json");
    expect(run.status).toBe(1);
    expect(oneLine(run.stderr)).toStartWith(
      "rule-server evaluate: BAD_REQUEST: the request on standard input: not valid JSON",
    );
  });

  test("a request file that is not JSON: one line naming it", async () => {
    const file = join(scratch.path, "broken.json");
    await Bun.write(file, "{not json");
    const run = await runCli(["evaluate", shopBundle, file]);
    expect(run.status).toBe(1);
    expect(oneLine(run.stderr)).toStartWith(
      `rule-server evaluate: BAD_REQUEST: the request file ${file}: not valid JSON`,
    );
  });
});

describe("the request's ruleset member", () => {
  test("a ruleset other than the file's is refused naming both, with the closest id, exit 1", async () => {
    for (const rules of [shopBundle, shopSource]) {
      const run = await runCli(["evaluate", rules, "-"], JSON.stringify({ ...order, ruleset: "shop.orders.ordr" }));
      expect(run.status).toBe(1);
      expect(run.stdout).toBe("");
      expect(oneLine(run.stderr)).toBe(
        `rule-server evaluate: UNKNOWN_RULESET: the request names ruleset shop.orders.ordr, but ${rules} holds ruleset shop.orders.order: did you mean \`shop.orders.order\`?`,
      );
    }
  });

  test("the file's own ruleset, or none at all, is evaluated against the file", async () => {
    const named = await runCli(
      ["evaluate", shopBundle, "-"],
      JSON.stringify({ ...order, ruleset: "shop.orders.order" }),
    );
    const unnamed = await runCli(["evaluate", shopBundle, "-"], JSON.stringify(order));
    expect(named.status).toBe(0);
    expect(unnamed.status).toBe(0);
    expect(JSON.parse(named.stdout)).toEqual(JSON.parse(unnamed.stdout));
    expect(JSON.parse(named.stdout).ruleset).toBe("shop.orders.order");
  });

  test("a version other than the file's is refused as the server refuses it", async () => {
    const run = await runCli(
      ["evaluate", shopSource, "-"],
      JSON.stringify({ ...order, ruleset: "shop.orders.order", version: "2.0.0" }),
    );
    expect(run.status).toBe(1);
    expect(oneLine(run.stderr)).toBe(
      `rule-server evaluate: UNKNOWN_VERSION: the request names version 2.0.0 of ruleset shop.orders.order, but ${shopSource} holds version 1.0.0`,
    );
    expect((await runCli(["evaluate", shopSource, "-"], JSON.stringify({ ...order, version: "1.0.0" }))).status).toBe(
      0,
    );
  });

  test("a ruleset member that is not a string is a malformed request", async () => {
    const run = await runCli(["evaluate", shopBundle, "-"], JSON.stringify({ ...order, ruleset: 7 }));
    expect(run.status).toBe(1);
    expect(oneLine(run.stderr)).toBe("rule-server evaluate: BAD_REQUEST: 'ruleset' must be a string");
  });
});

describe("a directory of rulesets", () => {
  test("the request's ruleset picks one of them", async () => {
    const shop = await runCli(
      ["evaluate", twoRulesets.path, "-"],
      JSON.stringify({ ...tooMany, ruleset: "shop.orders.order" }),
    );
    const bulk = await runCli(
      ["evaluate", twoRulesets.path, "-"],
      JSON.stringify({ ...tooMany, ruleset: "shop.orders.bulk" }),
    );
    expect(shop.status).toBe(0);
    expect(JSON.parse(shop.stdout)).toMatchObject({ ruleset: "shop.orders.order", decision: "deny" });
    expect(JSON.parse(bulk.stdout)).toMatchObject({ ruleset: "shop.orders.bulk", decision: "allow" });
  });

  test("without a ruleset member the request is refused, naming the rulesets it may name", async () => {
    const run = await runCli(["evaluate", twoRulesets.path, "-"], JSON.stringify(order));
    expect(run.status).toBe(1);
    expect(oneLine(run.stderr)).toBe(
      `rule-server evaluate: RULESET_REQUIRED: the request names no ruleset, and ${twoRulesets.path} holds rulesets shop.orders.bulk, shop.orders.order: add a "ruleset" member`,
    );
  });

  test("an unknown ruleset is refused naming the ones held", async () => {
    const run = await runCli(
      ["evaluate", twoRulesets.path, "-"],
      JSON.stringify({ ...order, ruleset: "shop.orders.bulky" }),
    );
    expect(run.status).toBe(1);
    expect(oneLine(run.stderr)).toContain(
      `UNKNOWN_RULESET: the request names ruleset shop.orders.bulky, but ${twoRulesets.path} holds rulesets shop.orders.bulk, shop.orders.order: did you mean \`shop.orders.bulk\`?`,
    );
  });

  test("a directory holding one ruleset needs no ruleset member", async () => {
    const one = temporaryDirectory({
      "order.schema.json": readFileSync(join(shopDir, "order.schema.json"), "utf8"),
      "shop.ruleset.yaml": shopText,
    });
    try {
      const run = await runCli(["evaluate", one.path, "-"], JSON.stringify(order));
      expect(run.status).toBe(0);
      expect(JSON.parse(run.stdout).ruleset).toBe("shop.orders.order");
    } finally {
      one.remove();
    }
  });

  test("--lines: each line picks its ruleset, and a line naming none or an unknown one is an error line", async () => {
    const input = [
      { ...tooMany, ruleset: "shop.orders.order" },
      { ...tooMany, ruleset: "shop.orders.bulk" },
      tooMany,
      { ...tooMany, ruleset: "nope" },
    ]
      .map((request) => JSON.stringify(request))
      .join("\n");
    const run = await runCli(["evaluate", twoRulesets.path, "-", "--lines"], input);
    expect(run.status).toBe(1);
    const lines = run.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines[0]).toMatchObject({ ruleset: "shop.orders.order", decision: "deny" });
    expect(lines[1]).toMatchObject({ ruleset: "shop.orders.bulk", decision: "allow" });
    expect(lines[2]).toMatchObject({ line: 3, error: { code: "RULESET_REQUIRED" } });
    expect(lines[3]).toMatchObject({ line: 4, error: { code: "UNKNOWN_RULESET" } });
  });

  test("a ruleset id defined twice in the directory refuses it, as the server refuses to start", async () => {
    const twice = temporaryDirectory({
      "order.schema.json": readFileSync(join(shopDir, "order.schema.json"), "utf8"),
      "a.ruleset.yaml": shopText,
      "b.bundle.json": readFileSync(shopBundle, "utf8"),
    });
    try {
      const run = await runCli(["evaluate", twice.path, "-"], JSON.stringify(order));
      expect(run.status).toBe(1);
      expect(run.stderr).toContain("RULESET_DUPLICATE ruleset shop.orders.order is also defined by");
    } finally {
      twice.remove();
    }
  });

  test("a directory without rulesets is said to hold none", async () => {
    const run = await runCli(["evaluate", scratch.path, "-"], JSON.stringify(order));
    expect(run.status).toBe(1);
    expect(oneLine(run.stderr)).toContain(`no ruleset found in ${scratch.path}`);
  });
});
