import { describe, expect, test } from "bun:test";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { readSource } from "../../../src/compiler/source/read-source.ts";

/**
 * The source-reading corpus (test/cases/sources): each case is a file name and its text. When the
 * read succeeds, `value` is the JSON value expected; `problems` lists every problem expected, in
 * order of line, by code and (when given) line. No `problems` means none.
 */
interface SourceCase {
  name: string;
  file: string;
  text: string;
  value?: unknown;
  problems?: { code: string; line?: number }[];
}

const dir = join(import.meta.dir, "..", "..", "cases", "sources");
const files = readdirSync(dir)
  .filter((name) => name.endsWith(".json"))
  .sort()
  .map((name) => ({
    name,
    cases: (JSON.parse(readFileSync(join(dir, name), "utf8")) as { cases: SourceCase[] }).cases,
  }));

test("the corpus is there", () => {
  expect(files.reduce((sum, file) => sum + file.cases.length, 0)).toBeGreaterThanOrEqual(80);
});

for (const file of files) {
  describe(file.name, () => {
    for (const sourceCase of file.cases) {
      test(sourceCase.name, () => {
        const read = readSource(sourceCase.text, sourceCase.file);
        const expected: { code: string; line?: number }[] = (sourceCase.problems ?? []).map((problem) =>
          problem.line === undefined ? { code: problem.code } : { code: problem.code, line: problem.line },
        );
        // A line is compared where the case gives one.
        const actual: { code: string; line?: number }[] = read.problems.map((problem, index) =>
          expected[index]?.line === undefined ? { code: problem.code } : { code: problem.code, line: problem.line },
        );
        expect(actual).toEqual(expected);
        for (const problem of read.problems) {
          expect(problem.file).toBe(sourceCase.file);
          expect(problem.message.length).toBeGreaterThan(0);
        }
        const refused = expected.some((problem) => problem.code !== "NUMBER_NOT_PORTABLE");
        expect(read.ok).toBe(!refused);
        if (read.ok) expect(read.value).toEqual(sourceCase.value as never);
        if ("value" in sourceCase && read.ok)
          expect(
            Object.is(read.value, sourceCase.value) || JSON.stringify(read.value) === JSON.stringify(sourceCase.value),
          ).toBe(true);
      });
    }
  });
}

describe("nesting", () => {
  test("deeply nested JSON is read without exhausting the stack", () => {
    const read = readSource("[".repeat(100_000) + "]".repeat(100_000), "deep.json");
    expect(read.ok).toBe(true);
  });
  test("YAML flow collections nested 300 deep are read", () => {
    const read = readSource(`a: ${"[".repeat(300)}${"]".repeat(300)}\n`, "deep.yaml");
    expect(read.ok).toBe(true);
  });
  test("YAML nested beyond what the parser can follow is refused, not thrown", () => {
    const read = readSource(`a: ${"[".repeat(100_000)}${"]".repeat(100_000)}\n`, "deep.yaml");
    expect(read.ok).toBe(false);
    expect(read.problems.map((problem) => problem.code)).toEqual(["SOURCE_INVALID"]);
  });
});

describe("the interop sources", () => {
  const interop = join(import.meta.dir, "..", "..", "cases", "interop");
  for (const file of [
    "shop/shop-order.ruleset.yaml",
    "library/library-base.ruleset.yaml",
    "library/library-loans.ruleset.yaml",
    "library/loan.schema.json",
  ]) {
    test(`${file} reads without a problem, unquoted versions included`, () => {
      const read = readSource(readFileSync(join(interop, file), "utf8"), file);
      expect(read.problems).toEqual([]);
      expect(read.ok).toBe(true);
    });
  }
});

test("a repeated key names the line of its first use, in a nested mapping too", () => {
  const read = readSource("rules:\n  - id: a\n    kind: validation\n\n    id: b\nid: c\nid: d\n", "r.ruleset.yaml");
  expect(read.problems.map((problem) => [problem.line, problem.message])).toEqual([
    [5, 'the key "id" is repeated (first on line 2)'],
    [7, 'the key "id" is repeated (first on line 6)'],
  ]);
});
