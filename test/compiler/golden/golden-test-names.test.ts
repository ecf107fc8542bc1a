import { afterAll, describe, expect, test } from "bun:test";
import { basename, join } from "node:path";
import { compileSourceFile, readRulesDirectory } from "../../../src/workspace/compile-source-file.ts";
import { goldenTestNameProblems } from "../../../src/compiler/golden/golden-test-names.ts";
import { suggestedName } from "../../../src/engine/names/closest-name.ts";
import { goldenJsonFiles } from "../../support/golden-files.ts";
import { temporaryDirectory } from "../../support/temp-directory.ts";

/**
 * The golden-test-names corpus (test/cases/golden-test-names): small rules directories whose
 * golden tests name an entity or operation the ruleset does not know. Each case lists every
 * problem, in order: code, file, 1-based line and column, the name suggested, and where a case
 * pins it, the whole message. The rulesets compile: these are problems of `check`, not of loading.
 */
interface ExpectedProblem {
  code: string;
  file: string;
  line: number;
  column: number;
  suggestion?: string;
  message?: string;
}

interface NamesCase {
  name: string;
  files: Record<string, string>;
  compile: string;
  problems: ExpectedProblem[];
}

const cleanups: (() => void)[] = [];
afterAll(() => cleanups.forEach((remove) => remove()));

for (const file of goldenJsonFiles("golden-test-names")) {
  const golden = file.content as { description: string; cases: NamesCase[] };
  describe(`${file.name}: ${golden.description}`, () => {
    for (const c of golden.cases) {
      test(c.name, () => {
        const directory = temporaryDirectory(c.files);
        cleanups.push(directory.remove);
        const rules = readRulesDirectory(directory.path);
        const compilation = compileSourceFile(join(directory.path, c.compile), rules);
        if (!compilation.ok) throw new Error(`does not compile: ${JSON.stringify(compilation.problems)}`);
        const problems = goldenTestNameProblems(compilation.compiled.ruleset, rules.documentSources);
        expect(
          problems.map((problem, index) => {
            const suggestion = suggestedName(problem.message);
            return {
              code: problem.code,
              file: basename(problem.file ?? ""),
              line: problem.line,
              column: problem.column,
              ...(suggestion === undefined ? {} : { suggestion }),
              ...(c.problems[index]?.message === undefined ? {} : { message: problem.message }),
            };
          }),
        ).toEqual(c.problems);
      });
    }
  });
}
