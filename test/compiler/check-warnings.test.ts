import { afterAll, describe, expect, test } from "bun:test";
import { basename, join } from "node:path";
import { compileSourceFile } from "../../src/workspace/compile-source-file.ts";
import { NO_CUSTOM_OPERATORS } from "../../src/engine/expression/custom-operators.ts";
import { loadSnapshot } from "../../src/server/snapshot/rules-snapshot.ts";
import { goldenJsonFiles } from "../support/golden-files.ts";
import { temporaryDirectory } from "../support/temp-directory.ts";

/**
 * The check-warnings corpus (test/cases/check-warnings): small rules directories (a ruleset in
 * YAML block style, YAML flow style or JSON, and its entity schema) whose rules load but can
 * never be right. Each case lists every warning compiling must give, in order: code, file,
 * 1-based line and column, rule, the whole message and the value suggested. A ruleset with
 * warnings still compiles: warnings are never load problems.
 */
interface ExpectedWarning {
  code: string;
  file: string;
  line: number;
  column: number;
  rule: string;
  message: string;
  suggestion?: string;
}

interface WarningCase {
  name: string;
  files: Record<string, string>;
  compile: string;
  warnings: ExpectedWarning[];
}

const cleanups: (() => void)[] = [];
afterAll(() => cleanups.forEach((remove) => remove()));

const files = goldenJsonFiles("check-warnings");
const cases = files.flatMap((file) => (file.content as { cases: WarningCase[] }).cases);

test("the corpus is there: each warning code in YAML block style, YAML flow style and JSON", () => {
  const styles = (code: string): Set<string> => {
    const found = new Set<string>();
    for (const c of cases) {
      if (!c.warnings.some((warning) => warning.code === code)) continue;
      const text = c.files[c.compile]!;
      if (c.compile.endsWith(".json")) found.add("json");
      else found.add(/^\s+(?:when|assert|value): \{/m.test(text) ? "flow" : "block");
    }
    return found;
  };
  for (const code of ["TYPE_MISMATCH", "ENUM_VALUE_UNKNOWN", "RULE_UNREACHABLE"])
    expect([...styles(code)].sort()).toEqual(["block", "flow", "json"]);
});

for (const file of files) {
  const golden = file.content as { description: string; cases: WarningCase[] };
  describe(`${file.name}: ${golden.description}`, () => {
    for (const c of golden.cases) {
      test(c.name, () => {
        const directory = temporaryDirectory(c.files);
        cleanups.push(directory.remove);
        const compilation = compileSourceFile(join(directory.path, c.compile));
        if (!compilation.ok) throw new Error(`does not compile: ${JSON.stringify(compilation.problems)}`);
        expect(compilation.warnings.every((warning) => warning.file !== undefined)).toBe(true);
        expect(compilation.compiled.warnings.length).toBe(compilation.warnings.length);
        expect(
          compilation.warnings.map((warning) => ({
            code: warning.code,
            file: basename(warning.file ?? ""),
            line: warning.line,
            column: warning.column,
            rule: warning.rule,
            message: warning.message,
            ...(warning.didYouMean === undefined ? {} : { suggestion: warning.didYouMean }),
          })),
        ).toEqual(c.warnings);
        // The suggestion is the one the message names.
        for (const warning of compilation.warnings) {
          expect(/did you mean `([^`]+)`\?$/.exec(warning.message)?.[1]).toBe(warning.didYouMean);
        }
      });
    }
  });
}

describe("warnings never refuse a load", () => {
  test("the server loads every rules directory of the corpus and serves its rulesets, warnings and all", () => {
    for (const c of cases) {
      const directory = temporaryDirectory(c.files);
      cleanups.push(directory.remove);
      const snapshot = loadSnapshot(directory.path, NO_CUSTOM_OPERATORS);
      const ids = Object.values(c.files).flatMap(
        (text) => /\bid: (pay\.[a-z]+)\n|"id": "(pay\.[a-z]+)"/.exec(text)?.slice(1).filter(Boolean) ?? [],
      );
      expect(ids.length).toBeGreaterThan(0);
      expect([...snapshot.rulesets.keys()].sort()).toEqual([...new Set(ids)].sort());
    }
  });
});
