import { describe, expect, test } from "bun:test";
import { basename } from "node:path";
import { caseCompiler } from "../support/compile-case.ts";
import { goldenJsonFiles } from "../support/golden-files.ts";
import { suggestedName } from "../../src/engine/names/closest-name.ts";

/**
 * The located-problems corpus (test/cases/located-problems): broken rulesets in YAML and JSON,
 * several mistakes to a file, each with every problem compiling must report, in order: code,
 * file, 1-based line and column, rule, for a near-miss name the name suggested, where a name was
 * first defined for one defined twice, and where a case says so, words the message must hold or
 * the whole message. A `compile` file named `*.bundle.json` is loaded as a bundle.
 */
interface ExpectedProblem {
  code: string;
  file: string;
  line: number;
  column: number;
  rule?: string;
  suggestion?: string;
  /** Words the message must hold (such as the place of the `$ref` that led into a schema file). */
  messageIncludes?: string;
  /** For a problem in a schema file: `file:line:column` of the `$ref` that led to it. */
  referencedAt?: string;
  /** For a name defined twice: `file:line:column` of its first definition. */
  firstDefinedAt?: string;
  /** The whole message, where a case pins it. */
  message?: string;
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
          problems.map((problem, index) => {
            const words = c.problems[index]?.messageIncludes;
            const pinned = c.problems[index]?.message;
            const suggestion = suggestedName(problem.message);
            const reference = problem.referencedAt;
            const first = problem.firstDefinedAt;
            return {
              code: problem.code,
              file: basename(problem.file ?? ""),
              line: problem.line,
              column: problem.column,
              ...(problem.rule ? { rule: problem.rule } : {}),
              ...(suggestion ? { suggestion } : {}),
              ...(words !== undefined && problem.message.includes(words) ? { messageIncludes: words } : {}),
              ...(reference === undefined
                ? {}
                : { referencedAt: `${basename(reference.file)}:${reference.line}:${reference.column}` }),
              ...(first === undefined
                ? {}
                : { firstDefinedAt: `${basename(first.file)}:${first.line}:${first.column}` }),
              ...(pinned === undefined ? {} : { message: problem.message }),
            };
          }),
        ).toEqual(c.problems);
        for (const problem of problems) expect(problem.message).not.toMatch(/\(\?:|\[(?:a-z|A-Z|0-9)|\\d|\$$/);
      });
    }
  });
}
