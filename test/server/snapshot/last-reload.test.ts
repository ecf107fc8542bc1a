import { expect, test } from "bun:test";
import { refusedReload } from "../../../src/server/snapshot/last-reload.ts";

/** /readyz is public: a refused reload names files by their place in RULES_DIR, also where a problem points elsewhere. */
test("a refused reload's problems name files relative to the rules directory, the places they point at too", () => {
  const reload = refusedReload(
    new Date("2026-11-27T00:00:00Z"),
    "SIGHUP",
    [
      {
        code: "RULE_DUPLICATE",
        message: "m",
        file: "/srv/rules/child.ruleset.yaml",
        line: 3,
        firstDefinedAt: { file: "/srv/rules/base.ruleset.yaml", line: 12, column: 7 },
      },
      {
        code: "SCHEMA_INVALID",
        message: "m",
        file: "/srv/rules/schemas/transfer.yaml",
        referencedAt: { file: "/srv/rules/child.ruleset.yaml", line: 9 },
      },
      { code: "BUNDLE_INVALID", message: "m" },
    ],
    "/srv/rules",
  );
  expect(reload.problems).toEqual([
    {
      code: "RULE_DUPLICATE",
      message: "m",
      file: "child.ruleset.yaml",
      line: 3,
      firstDefinedAt: { file: "base.ruleset.yaml", line: 12, column: 7 },
    },
    {
      code: "SCHEMA_INVALID",
      message: "m",
      file: "schemas/transfer.yaml",
      referencedAt: { file: "child.ruleset.yaml", line: 9 },
    },
    { code: "BUNDLE_INVALID", message: "m" },
  ]);
  expect(JSON.stringify(reload)).not.toContain("/srv/");
});
