import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { checkExampleRules } from "../../src/packaging/example-rules-check.ts";
import { PackagingError } from "../../src/packaging/packaging-error.ts";
import { rulesDirectory } from "../support/rules-directory.ts";
import { PROJECT_ROOT } from "../support/run-cli.ts";

/** A release packs the example rules only when `check` passes them, golden tests included. */
test("the project's example rules pass, so a build packs them", () => {
  expect(() => checkExampleRules(PROJECT_ROOT)).not.toThrow();
});

test("example rules with a failing golden test stop the build, with check's report in the error", () => {
  const rules = rulesDirectory();
  try {
    const shop = readFileSync(`${rules.path}/shop-order.ruleset.yaml`, "utf8");
    expect(shop).toContain("decision: deny");
    rules.write("shop-order.ruleset.yaml", shop.replaceAll("decision: deny", "decision: allow"));
    let error: unknown;
    try {
      checkExampleRules(PROJECT_ROOT, rules.path);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(PackagingError);
    expect((error as PackagingError).code).toBe("EXAMPLE_RULES_FAILING");
    expect((error as PackagingError).message).toContain("FAIL");
  } finally {
    rules.remove();
  }
});
