import { expect, test } from "bun:test";
import { join } from "node:path";
import { compileSourceFile } from "../../../src/workspace/compile-source-file.ts";
import { LoadedRuleset } from "../../../src/engine/bundle/loaded-ruleset.ts";
import { RequestMisfitError } from "../../../src/engine/schema/request-fit.ts";
import { withoutOurExtensions } from "../../support/bundle-extensions.ts";
import { PROJECT_ROOT } from "../../support/run-cli.ts";

/** The engine's schema enforcement option on the rules/ example, with and without the schemas in the bundle. */
const compiled = compileSourceFile(join(PROJECT_ROOT, "rules", "acme-payments-transfers.ruleset.yaml"));
if (!compiled.ok) throw new Error("the rules/ example does not compile");
const ruleset = LoadedRuleset.fromBundle(compiled.compiled.bundle);
const transfer = {
  entity: "Transfer",
  operation: "create",
  data: { id: "T-1", amount: 120, debtor: {}, beneficiary: {} },
};

test("off by default: the result is the specification's, even for a request that does not fit", () => {
  const misfit = { ...transfer, data: { id: 7 } };
  expect(ruleset.evaluate(misfit, "server").warnings).toBeUndefined();
  expect(JSON.stringify(ruleset.evaluate(misfit, "server", { schemaEnforcement: "off" }))).toBe(
    JSON.stringify(ruleset.evaluate(misfit, "server")),
  );
});

test("warn: a request that fits gets no warnings; one that does not gets them, data and original alike", () => {
  const fitting = ruleset.evaluate(transfer, "server", { schemaEnforcement: "warn" });
  expect(fitting.warnings).toBeUndefined();
  expect(JSON.stringify(fitting)).toBe(JSON.stringify(ruleset.evaluate(transfer, "server")));
  const misfit = ruleset.evaluate(
    {
      ...transfer,
      operation: "update",
      data: { ...transfer.data, amount: "120" },
      original: { ...transfer.data, status: "aproved" },
    },
    "server",
    { schemaEnforcement: "warn" },
  );
  expect(misfit.warnings).toEqual([
    expect.objectContaining({ code: "DATA_INVALID", pointer: "/data/amount" }),
    expect.objectContaining({ code: "DATA_INVALID", pointer: "/original/status", didYouMean: "approved" }),
  ]);
});

test("reject: RequestMisfitError with the warnings, nothing evaluated", () => {
  let error: unknown;
  try {
    ruleset.evaluate({ ...transfer, entity: "Transfre" }, "client", { schemaEnforcement: "reject" });
  } catch (caught) {
    error = caught;
  }
  expect(error).toBeInstanceOf(RequestMisfitError);
  expect((error as RequestMisfitError).code).toBe("REQUEST_MISFIT");
  expect((error as RequestMisfitError).warnings).toEqual([
    {
      code: "ENTITY_UNKNOWN",
      pointer: "/entity",
      message: 'the ruleset declares no entity "Transfre"',
      didYouMean: "Transfer",
    },
  ]);
});

test("a bundle without the schemas checks names only, and says which entities lack one", () => {
  const bare = LoadedRuleset.fromBundle(withoutOurExtensions(compiled.compiled.bundle));
  expect(bare.entitiesWithoutSchema()).toEqual(["Transfer"]);
  expect(ruleset.entitiesWithoutSchema()).toEqual([]);
  expect(
    bare.evaluate({ ...transfer, data: { id: 7 } }, "server", { schemaEnforcement: "warn" }).warnings,
  ).toBeUndefined();
  expect(bare.evaluate({ ...transfer, operation: "craete" }, "server", { schemaEnforcement: "warn" }).warnings).toEqual(
    [expect.objectContaining({ code: "OPERATION_UNKNOWN", didYouMean: "create" })],
  );
});
