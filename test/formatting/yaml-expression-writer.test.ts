import { expect, test } from "bun:test";
import { readSource } from "../../src/compiler/source/read-source.ts";
import type { JsonValue } from "../../src/engine/value/json-value.ts";
import { yamlBlock, yamlFlow, yamlQuoted } from "../../src/formatting/yaml-expression-writer.ts";

/** Trees and texts as `fmt` writes them into YAML: as a person would, and read back as the same values. */

/** The value YAML text reads as, through the reader every source goes through (it refuses what YAML 1.1 reads otherwise). */
function readBack(yaml: string): JsonValue {
  const read = readSource(`value: ${yaml}\n`, "x.yaml");
  if (!read.ok) throw new Error(read.problems.map((problem) => problem.message).join("; "));
  expect(read.problems).toEqual([]);
  return (read.value as { value: JsonValue }).value;
}

test("a text is in double quotes, in single quotes when it holds double quotes and no single quote", () => {
  expect(yamlQuoted("data.a > 1")).toBe('"data.a > 1"');
  expect(yamlQuoted('data.kind == "refund"')).toBe(`'data.kind == "refund"'`);
  expect(yamlQuoted(`data.kind == "it's"`)).toBe(`"data.kind == \\"it's\\""`);
  for (const text of ["data.a > 1", 'data.kind == "refund"', `data.kind == "it's"`, 'matches(data.x, "^\\\\d$")'])
    expect(readBack(yamlQuoted(text))).toBe(text);
});

test("names are plain and literal strings quoted, as rules/ writes trees", () => {
  expect(yamlFlow({ op: "eq", args: [{ var: "data.purpose" }, "other"] })).toBe(
    '{ op: eq, args: [{ var: data.purpose }, "other"] }',
  );
  expect(yamlFlow({ fn: "daysUntil", args: [] })).toBe("{ fn: daysUntil, args: [] }");
  expect(yamlFlow({ op: "x-luhn", args: [{ var: "data.items.0.first-name" }] })).toBe(
    "{ op: x-luhn, args: [{ var: data.items.0.first-name }] }",
  );
});

test("a name YAML 1.1 reads as another value is quoted, and so is what is no plain name", () => {
  const tree = {
    fn: "yes",
    args: [
      { fn: "Off", args: [] },
      { fn: "null", args: [] },
      { fn: "a b", args: [] },
    ],
  };
  expect(yamlFlow(tree)).toBe(
    '{ fn: "yes", args: [{ fn: "Off", args: [] }, { fn: "null", args: [] }, { fn: "a b", args: [] }] }',
  );
  expect(readBack(yamlFlow(tree))).toEqual(tree);
});

test("numbers are JavaScript's shortest form, with a point before an exponent so that YAML 1.1 reads a number too", () => {
  const tree = { op: "add", args: [1e-7, 1.5e21, 1e21, -0.25, 100, true, null] };
  expect(yamlFlow(tree)).toBe("{ op: add, args: [1.0e-7, 1.5e+21, 1.0e+21, -0.25, 100, true, null] }");
  expect(readBack(yamlFlow(tree))).toEqual(tree);
});

test("block style: members on their lines, arguments as `- ` items, each on one line where it fits", () => {
  const wide = Array.from({ length: 12 }, (_, index) => ({ var: `data.member${index}` }));
  const tree = {
    op: "and",
    args: [
      { op: "gt", args: [{ var: "data.a" }, 1] },
      { op: "concat", args: wide },
    ],
  };
  const lines = yamlBlock(tree, "  ", "  ");
  expect(lines.slice(0, 5)).toEqual([
    "  op: and",
    "  args:",
    "    - { op: gt, args: [{ var: data.a }, 1] }",
    "    - op: concat",
    "      args:",
  ]);
  expect(lines.slice(5)).toEqual(wide.map((arg) => `        - { var: ${arg.var} }`));
  expect(readBack(`\n${lines.join("\n")}`)).toEqual(tree);
});
