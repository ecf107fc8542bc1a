import { expect, test } from "bun:test";
import { compileSourceFile } from "../../src/workspace/compile-source-file.ts";
import { conditionHolds, loadRuleset, PlanRequestError, prismaWhere } from "../../src/browser/rule-cascade.ts";
import { join } from "node:path";
import { PROJECT_ROOT } from "../support/run-cli.ts";

/**
 * The browser module plans as the server does: `plan` on a page's ruleset gives the engine's plan, which `conditionHolds` applies to rows in the page; a malformed
 * request throws PlanRequestError.
 */
test("a page plans against a bundle and applies the condition to its rows, as evaluation decides them", async () => {
  const compiled = compileSourceFile(join(PROJECT_ROOT, "rules", "acme-payments.ruleset.yaml"));
  if (!compiled.ok) throw new Error("rules/ does not compile");
  const ruleset = await loadRuleset(compiled.compiled.bundle as never);
  const plan = ruleset.plan({ entity: "Transfer", operation: "approve", actor: { id: "u-2001", roles: ["teller"] } });
  expect(plan).toMatchObject({ ruleset: "acme.payments", kind: "conditional" });
  const rows = [
    { beneficiary: { country: "AT" }, createdBy: "u-1" },
    { beneficiary: { country: "IR" }, createdBy: "u-1" },
    { beneficiary: { country: "AT" }, createdBy: "u-2001" },
  ];
  const allowed = rows.filter((row) => conditionHolds(plan.condition!, row));
  const evaluated = rows.filter(
    (data) =>
      ruleset.evaluate({ entity: "Transfer", operation: "approve", actor: { id: "u-2001", roles: ["teller"] }, data })
        .decision === "allow",
  );
  expect(plan.exact).toBe(true);
  expect(allowed).toEqual(evaluated);
  // The module's Prisma translation, for an application whose transfers have their columns.
  const where = prismaWhere(plan.condition!, {
    columns: { "/beneficiary/country": "beneficiaryCountry", "/createdBy": "createdBy" },
  });
  expect(where).toEqual({
    AND: [
      { OR: [{ beneficiaryCountry: null }, { beneficiaryCountry: { notIn: ["CU", "IR", "KP", "SY"] } }] },
      { OR: [{ createdBy: null }, { createdBy: { not: "u-2001" } }] },
    ],
  });
  expect(() => ruleset.plan({ entity: "Transfer", operation: "approve", data: {} })).toThrow(PlanRequestError);
  expect(() => ruleset.plan({ entity: "Transfer", operation: "approve" }, "web" as never)).toThrow(PlanRequestError);
});
