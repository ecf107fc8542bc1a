import { afterAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CASES_DIR } from "../support/golden-files.ts";
import { entitiesWithSchemas, withoutOurExtensions } from "../support/bundle-extensions.ts";
import { runCli } from "../support/run-cli.ts";
import { temporaryDirectory } from "../support/temp-directory.ts";

/** `check`, `compile`, `manifest` and `evaluate`, run as a user's CI runs them. */
const shopDir = join(CASES_DIR, "interop", "shop");
const shopSource = join(shopDir, "shop-order.ruleset.yaml");
const shopBundleFile = join(shopDir, "shop-order.bundle.json");
const shopBundle = JSON.parse(readFileSync(shopBundleFile, "utf8"));
const orderSchema = readFileSync(join(shopDir, "order.schema.json"), "utf8");
const shopText = readFileSync(shopSource, "utf8");

const broken = temporaryDirectory({
  "order.schema.json": orderSchema,
  "shop.ruleset.yaml": shopText.replace("version: 1.0.0", "version: 1.0.0\n  owner: yes"),
  "other.ruleset.yaml": shopText
    .replace("id: shop.orders.order", "id: shop.orders.other")
    .replace("data.quantity }, { var: params.maxQuantity", "data.quantity }, { var: params.nope"),
  "failing.ruleset.yaml": shopText
    .replace("id: shop.orders.order", "id: shop.orders.failing")
    .replace("decision: deny", "decision: allow"),
});
afterAll(() => broken.remove());

describe("check", () => {
  test("passes the interop rulesets and bundles named as files with their golden tests, exit 0", async () => {
    const files = [shopDir, join(CASES_DIR, "interop", "library")].flatMap((directory) =>
      readdirSync(directory)
        .filter((name) => /\.(ruleset\.yaml|bundle\.json)$/.test(name))
        .map((name) => join(directory, name)),
    );
    const run = await runCli(["check", ...files]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("PASS too many items is denied, total computed");
    expect(run.stdout).toContain("OK: 6 file(s), 0 problem(s), 0 warning(s), 4 test(s) passed, 0 failed");
  });

  test("a directory holding a ruleset's source and its bundle fails as the server refuses it: the id is defined twice", async () => {
    const run = await runCli(["check", shopDir]);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain(
      "shop-order.bundle.json:1:1: RULESET_DUPLICATE ruleset shop.orders.order is also defined by shop-order.ruleset.yaml",
    );
  });

  test("reports every problem with code, file, rule and message, and exits 1", async () => {
    const run = await runCli(["check", broken.path]);
    expect(run.status).toBe(1);
    // path:line:column: CODE [rule] message, the form editors and CI annotate from.
    expect(run.stdout).toMatch(/shop\.ruleset\.yaml:\d+:\d+: YAML_NOT_PORTABLE /);
    expect(run.stdout).toMatch(/other\.ruleset\.yaml:\d+:\d+: PARAM_UNDECLARED \[order\.quantity\.max\] /);
    expect(run.stdout).toContain("FAIL too many items is denied, total computed");
    expect(run.stdout).toContain('decision is "deny", expected "allow"');
  });

  test("--json gives the same report for machines", async () => {
    const run = await runCli(["check", "--json", broken.path]);
    expect(run.status).toBe(1);
    const report = JSON.parse(run.stdout);
    expect(report.ok).toBe(false);
    const other = report.files.find((file: { file: string }) => file.file.endsWith("other.ruleset.yaml"));
    expect(other.problems).toContainEqual(
      expect.objectContaining({ code: "PARAM_UNDECLARED", rule: "order.quantity.max" }),
    );
    const failing = report.files.find((file: { file: string }) => file.file.endsWith("failing.ruleset.yaml"));
    expect(failing.tests[0].failures.length).toBeGreaterThan(0);
  });

  test("a ruleset id defined by two files is a problem", async () => {
    const twice = temporaryDirectory({
      "order.schema.json": orderSchema,
      "a.ruleset.yaml": shopText.replace(/tests:[\s\S]*$/, ""),
      "b.ruleset.yaml": shopText.replace(/tests:[\s\S]*$/, ""),
    });
    try {
      const run = await runCli(["check", twice.path]);
      expect(run.status).toBe(1);
      expect(run.stdout).toContain("RULESET_DUPLICATE");
    } finally {
      twice.remove();
    }
  });

  test("a golden test naming an entity or operation the ruleset does not know is a problem with a suggestion, though the test passes", async () => {
    const testsNothing = (entity: string, operation: string): string =>
      `  - name: ${entity} ${operation} is allowed\n    entity: ${entity}\n    operation: ${operation}\n    given: { data: {} }\n    expect: { decision: allow, findings: [] }\n`;
    const misnamed = temporaryDirectory({
      "order.schema.json": orderSchema,
      "shop.ruleset.yaml": `${shopText.trimEnd()}\n${testsNothing("Ordr", "create")}${testsNothing("Order", "craete")}${testsNothing("Order", "delete")}`,
    });
    try {
      const run = await runCli(["check", misnamed.path]);
      expect(run.status).toBe(1);
      expect(run.stdout).toMatch(
        /shop\.ruleset\.yaml:\d+:13: TEST_ENTITY_UNKNOWN golden test "Ordr create is allowed" names entity Ordr, .*: did you mean `Order`\?/,
      );
      expect(run.stdout).toMatch(
        /shop\.ruleset\.yaml:\d+:16: TEST_OPERATION_UNKNOWN golden test "Order craete is allowed" names operation craete, .*: did you mean `create`\?/,
      );
      // A standard operation no rule names is one a test may mean: delete is allowed.
      expect(run.stdout).not.toContain("operation delete");
      expect(run.stdout).toContain("PASS Ordr create is allowed");
      expect(run.stdout).toContain("FAILED: 1 file(s), 2 problem(s), 0 warning(s), 5 test(s) passed, 0 failed");
    } finally {
      misnamed.remove();
    }
  });

  test("without a file or directory it is a usage error", async () => expect((await runCli(["check"])).status).toBe(2));
});

describe("compile", () => {
  test("prints the bundle", async () => {
    const run = await runCli(["compile", shopSource]);
    expect(run.status).toBe(0);
    // The other runtime's bundle, and our extension: each manifest carries the entity's schema.
    expect(withoutOurExtensions(JSON.parse(run.stdout))).toEqual(shopBundle);
    expect(entitiesWithSchemas(JSON.parse(run.stdout).manifests.client)).toEqual(["Order"]);
  });
  test("-o writes it to a file", async () => {
    const out = temporaryDirectory({});
    try {
      const file = join(out.path, "shop.bundle.json");
      expect((await runCli(["compile", shopSource, "-o", file])).status).toBe(0);
      expect(withoutOurExtensions(JSON.parse(readFileSync(file, "utf8")))).toEqual(shopBundle);
    } finally {
      out.remove();
    }
  });
  test("a ruleset with problems prints them on stderr and exits 1", async () => {
    const run = await runCli(["compile", join(broken.path, "other.ruleset.yaml")]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("PARAM_UNDECLARED");
    expect(run.stdout).toBe("");
  });
});

describe("manifest", () => {
  test("prints the client manifest by default", async () => {
    const run = await runCli(["manifest", shopSource]);
    expect(withoutOurExtensions(JSON.parse(run.stdout))).toEqual(shopBundle.manifests.client);
    expect(entitiesWithSchemas(JSON.parse(run.stdout))).toEqual(["Order"]);
  });
  test("--channel server prints the server manifest", async () => {
    const run = await runCli(["manifest", shopSource, "--channel", "server"]);
    expect(withoutOurExtensions(JSON.parse(run.stdout))).toEqual(shopBundle.manifests.server);
  });
  test("another channel is a usage error", async () =>
    expect((await runCli(["manifest", shopSource, "--channel", "web"])).status).toBe(2));
});

describe("evaluate", () => {
  const order = {
    entity: "Order",
    operation: "create",
    data: { quantity: 3, unitPrice: 0.1, customer: { email: "a@b.c" } },
  };
  test("evaluates a request from standard input against a bundle", async () => {
    const run = await runCli(["evaluate", "--bundle", shopBundleFile], JSON.stringify(order));
    expect(run.status).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.decision).toBe("allow");
    expect(result.commands[0].idempotencyKey).toBe("order:0.3");
  });
  test("evaluates a request file on the client channel", async () => {
    const dir = temporaryDirectory({ "request.json": JSON.stringify(order) });
    try {
      const run = await runCli([
        "evaluate",
        "--bundle",
        shopBundleFile,
        "--channel",
        "client",
        join(dir.path, "request.json"),
      ]);
      expect(JSON.parse(run.stdout).commands).toEqual([]);
    } finally {
      dir.remove();
    }
  });
  test("a malformed request is refused with its reason and exit 1", async () => {
    const run = await runCli(
      ["evaluate", "--bundle", shopBundleFile],
      JSON.stringify({ entity: "Order", operation: "create", view: 1 }),
    );
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("'view' must be an object");
  });
  test("without a bundle or ruleset it is a usage error", async () =>
    expect((await runCli(["evaluate"], "{}")).status).toBe(2));

  test("a ruleset source is compiled in memory: --ruleset, or told apart by its name, answers as its bundle does", async () => {
    const fromBundle = await runCli(["evaluate", "--bundle", shopBundleFile], JSON.stringify(order));
    const withOption = await runCli(["evaluate", "--ruleset", shopSource], JSON.stringify(order));
    const byName = await runCli(["evaluate", shopSource], JSON.stringify(order));
    expect(withOption.status).toBe(0);
    expect(JSON.parse(withOption.stdout)).toEqual(JSON.parse(fromBundle.stdout));
    expect(byName.stdout).toBe(withOption.stdout);
  });

  test("a ruleset source with problems: its located problems and exit 1", async () => {
    const run = await runCli(["evaluate", join(broken.path, "other.ruleset.yaml")], JSON.stringify(order));
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/other\.ruleset\.yaml:\d+:\d+: PARAM_UNDECLARED /);
  });

  test("a file that is neither a bundle nor a ruleset source is named as such", async () => {
    const run = await runCli(["evaluate", join(shopDir, "order.schema.json")], JSON.stringify(order));
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("is neither a bundle (*.bundle.json) nor a ruleset source");
  });
});
