import { describe, expect, test } from "bun:test";
import { caseCompiler } from "../support/compile-case.ts";
import { goldenJsonFiles } from "../support/golden-files.ts";

/**
 * The load-error corpus (test/cases/load-errors): each case is a small rules directory and the
 * problems compiling one of its files must report, by code and rule id. Schema and YAML problems
 * may come several to a document, so for those only their presence is compared.
 */
interface LoadErrorCase {
  name: string;
  files: Record<string, string>;
  compile: string;
  problems: { code: string; rule?: string }[];
}

const COUNTED_LOOSELY = new Set(["SCHEMA_INVALID", "YAML_NOT_PORTABLE"]);
const compileCase = caseCompiler();

const key = (problem: { code: string; rule?: string }): string =>
  `${problem.code}${problem.rule ? ` [${problem.rule}]` : ""}`;

for (const file of goldenJsonFiles("load-errors")) {
  const golden = file.content as { description: string; cases: LoadErrorCase[] };
  describe(`${file.name}: ${golden.description}`, () => {
    for (const c of golden.cases) {
      test(c.name, () => {
        const actual = compileCase(c.files, c.compile).map((problem) => ({
          code: problem.code,
          ...(problem.rule ? { rule: problem.rule } : {}),
        }));
        const strict = (problems: { code: string; rule?: string }[]): string[] =>
          problems.filter((problem) => !COUNTED_LOOSELY.has(problem.code)).map(key);
        const loose = (problems: { code: string }[]): string[] =>
          [...new Set(problems.map((problem) => problem.code).filter((code) => COUNTED_LOOSELY.has(code)))].sort();
        expect(strict(actual)).toEqual(strict(c.problems));
        expect(loose(actual)).toEqual(loose(c.problems));
      });
    }
  });
}
