import { describe, expect, test } from "bun:test";
import { basename } from "node:path";
import { caseCompiler } from "../support/compile-case.ts";
import { goldenJsonFiles } from "../support/golden-files.ts";

/**
 * The located-problems corpus (test/cases/located-problems): broken rulesets in YAML and JSON,
 * several mistakes to a file, each with every problem compiling must report, in order: code,
 * file, 1-based line and column, rule, and for a near-miss name the name suggested.
 */
interface ExpectedProblem {
  code: string;
  file: string;
  line: number;
  column: number;
  rule?: string;
  suggestion?: string;
}

interface LocatedCase {
  name: string;
  files: Record<string, string>;
  compile: string;
  problems: ExpectedProblem[];
}

const compileCase = caseCompiler();

const files = goldenJsonFiles("located-problems");

test("the corpus is there", () => {
  expect(files.flatMap((file) => (file.content as { cases: unknown[] }).cases).length).toBeGreaterThanOrEqual(9);
});

for (const file of files) {
  const golden = file.content as { description: string; cases: LocatedCase[] };
  describe(`${file.name}: ${golden.description}`, () => {
    for (const c of golden.cases) {
      test(c.name, () => {
        const problems = compileCase(c.files, c.compile);
        expect(
          problems.map((problem) => {
            const suggestion = /did you mean `([^`]+)`\?/.exec(problem.message)?.[1];
            return {
              code: problem.code,
              file: basename(problem.file ?? ""),
              line: problem.line,
              column: problem.column,
              ...(problem.rule ? { rule: problem.rule } : {}),
              ...(suggestion ? { suggestion } : {}),
            };
          }),
        ).toEqual(c.problems);
        for (const problem of problems) expect(problem.message).not.toMatch(/\(\?:|\[(?:a-z|A-Z|0-9)|\\d|\$$/);
      });
    }
  });
}
