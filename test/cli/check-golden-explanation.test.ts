import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { rulesDirectory } from "../support/rules-directory.ts";
import { runCli } from "../support/run-cli.ts";

/** A failing golden test says what differs, then why: the full explanation of the rules whose outcome differs. */
test("a wrong expected decision: the rule that denied is explained, with its deciding leaf", async () => {
  const rules = rulesDirectory();
  try {
    const file = join(rules.path, "shop-order.ruleset.yaml");
    rules.write("shop-order.ruleset.yaml", readFileSync(file, "utf8").replace("decision: deny", "decision: allow"));
    const run = await runCli(["check", file]);
    expect(run.status).toBe(1);
    const lines = run.stdout.split("\n");
    const failed = lines.findIndex((line) => line.includes("FAIL too many items is denied"));
    expect(lines.slice(failed + 1, failed + 5).map((line) => line.trim())).toEqual([
      'decision is "deny", expected "allow"',
      "expected (-) against actual (+):",
      '- decision: "allow"',
      '+ decision: "deny"',
    ]);
    const why = lines.indexOf("       why, for the rules whose outcome differs:");
    expect(why).toBeGreaterThan(failed);
    expect(lines.slice(why, why + 6).map((line) => line.trim())).toEqual([
      "why, for the rules whose outcome differs:",
      "fired  order.quantity.max (validation): its assertion failed, so it raised finding ORD-QTY-001",
      "assert:",
      "data.quantity <= params.maxQuantity → false   <- decided",
      "data.quantity → 150",
      "params.maxQuantity → 100",
    ]);
    const json = JSON.parse((await runCli(["check", "--json", file])).stdout);
    const outcome = json.files[0].tests.find((entry: { name: string }) => entry.name.startsWith("too many items"));
    expect(outcome.explained.map((rule: { rule: string; because?: string[] }) => [rule.rule, rule.because])).toEqual([
      ["order.quantity.max", ["/assert"]],
    ]);
    const junit = (await runCli(["check", "--format", "junit", file])).stdout;
    expect(junit).toContain(
      "why, for the rules whose outcome differs:&#10;fired  order.quantity.max (validation): its assertion failed, so it raised finding ORD-QTY-001",
    );
    expect(junit).toContain("data.quantity &lt;= params.maxQuantity → false   &lt;- decided");
  } finally {
    rules.remove();
  }
});

test("an expected finding that does not come: its rule is explained (here, its assertion held)", async () => {
  const rules = rulesDirectory();
  try {
    const file = join(rules.path, "shop-order.ruleset.yaml");
    // The second test now expects the quantity finding for an order of 3.
    const text = readFileSync(file, "utf8");
    const good = text.indexOf("- name: a good order is allowed and notifies");
    const expectAt = text.indexOf("findings: []", good);
    rules.write(
      "shop-order.ruleset.yaml",
      `${text.slice(0, expectAt)}findings:\n        - rule: order.quantity.max${text.slice(expectAt + "findings: []".length)}`,
    );
    const run = await runCli(["check", "--json", file]);
    const outcome = JSON.parse(run.stdout).files[0].tests.find((entry: { name: string }) =>
      entry.name.startsWith("a good order"),
    );
    expect(outcome.failures[0]).toContain("findings come from [], expected [order.quantity.max]");
    expect(outcome.explained).toEqual([
      expect.objectContaining({
        rule: "order.quantity.max",
        status: "passed",
        assert: expect.objectContaining({ value: true }),
      }),
    ]);
  } finally {
    rules.remove();
  }
});

test("passing tests carry no explanation", async () => {
  const rules = rulesDirectory();
  try {
    const json = JSON.parse((await runCli(["check", "--json", join(rules.path, "shop-order.ruleset.yaml")])).stdout);
    for (const outcome of json.files[0].tests) expect(outcome.explained).toBeUndefined();
  } finally {
    rules.remove();
  }
});
