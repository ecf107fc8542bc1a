import { afterAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CASES_DIR } from "../support/golden-files.ts";
import { runCli } from "../support/run-cli.ts";
import { temporaryDirectory } from "../support/temp-directory.ts";

/**
 * `check --portable`: other Rule Cascade runtimes read expression trees only, so each expression
 * a source writes as text is a warning (EXPRESSION_NOT_PORTABLE) at the first character of its
 * text. Without the flag, text is not warned about.
 */
const shopDir = join(CASES_DIR, "interop", "shop");
const shopText = readFileSync(join(shopDir, "shop-order.ruleset.yaml"), "utf8");
const TREE_ASSERT = "assert: { op: lte, args: [{ var: data.quantity }, { var: params.maxQuantity }] }";
const TREE_VALUE = "value: { op: mul, args: [{ var: data.quantity }, { var: data.unitPrice }] }";

/** The sample with `search` written as `replacement`: it must hold `search`. */
function rewritten(text: string, search: string, replacement: string): string {
  if (!text.includes(search)) throw new Error(`the shop sample no longer holds ${search}`);
  return text.replace(search, replacement);
}

const directory = temporaryDirectory({
  "order.schema.json": readFileSync(join(shopDir, "order.schema.json"), "utf8"),
  "shop.ruleset.yaml": rewritten(
    rewritten(shopText, TREE_ASSERT, 'assert: { expr: "data.quantity <= params.maxQuantity" }'),
    TREE_VALUE,
    'value: { op: mul, args: [{ expr: "data.quantity" }, { var: data.unitPrice }] }',
  ),
});
afterAll(() => directory.remove());

const MESSAGE =
  "this expression is written as text, which other Rule Cascade runtimes do not read (they read trees only): `rule-server fmt --expressions tree` writes it as a tree";

test("--portable warns at every expression written as text, a text inside a tree too, and exits 0", async () => {
  const run = await runCli(["check", "--portable", "shop.ruleset.yaml"], "", { cwd: directory.path });
  expect(run.status).toBe(0);
  const line = (text: string) => shopText.split("\n").findIndex((candidate) => candidate.includes(text)) + 1;
  // `    assert: { expr: "` is 21 characters: the text starts in column 22; the value's after 42.
  expect(run.stdout.split("\n").filter((printed) => printed.includes("EXPRESSION_NOT_PORTABLE"))).toEqual([
    `shop.ruleset.yaml:${line(TREE_ASSERT)}:22: warning EXPRESSION_NOT_PORTABLE [order.quantity.max] ${MESSAGE}`,
    `shop.ruleset.yaml:${line(TREE_VALUE)}:43: warning EXPRESSION_NOT_PORTABLE [order.total.compute] ${MESSAGE}`,
  ]);
  expect(run.stdout).toContain("OK: 1 file(s), 0 problem(s), 2 warning(s)");
});

test("without --portable, text is not warned about", async () => {
  const run = await runCli(["check", "shop.ruleset.yaml"], "", { cwd: directory.path });
  expect([run.status, run.stdout.includes("EXPRESSION_NOT_PORTABLE")]).toEqual([0, false]);
  expect(run.stdout).toContain("OK: 1 file(s), 0 problem(s), 0 warning(s)");
});

test("--strict --portable makes text a problem, for a CI that must hand trees to other runtimes", async () => {
  const run = await runCli(["check", "--strict", "--portable", "shop.ruleset.yaml"], "", { cwd: directory.path });
  expect(run.status).toBe(1);
  expect(run.stdout).toContain(": EXPRESSION_NOT_PORTABLE [order.quantity.max]");
});
