import { expect, test } from "bun:test";
import type { JsonValue } from "../../src/browser/rule-cascade.ts";
import { expressionText, isLiteral } from "../../src/explorer/expression-text.ts";

const v = (path: string): JsonValue => ({ var: path });
const op = (name: string, ...args: JsonValue[]): JsonValue => ({ op: name, args });
const fn = (name: string, ...args: JsonValue[]): JsonValue => ({ fn: name, args });

test("comparisons, variables and literals read as people write them", () => {
  expect(expressionText(op("lte", v("data.amount"), v("params.singleTransferLimit")))).toBe(
    "data.amount <= params.singleTransferLimit",
  );
  expect(expressionText(op("eq", op("typeOf", v("data.amount")), "number"))).toBe('typeOf(data.amount) == "number"');
  expect(expressionText(op("ne", v("actor.id"), v("data.createdBy")))).toBe("actor.id != data.createdBy");
  expect(expressionText(op("in", v("data.beneficiary.country"), v("params.sanctionedCountries")))).toBe(
    "data.beneficiary.country in params.sanctionedCountries",
  );
  expect(expressionText(op("gt", 1.5, null))).toBe("1.5 > null");
  expect(expressionText(op("eq", v("data.urgent"), true))).toBe("data.urgent == true");
  // Strings are JSON strings: a pattern's backslashes and quotes are not ambiguous.
  expect(expressionText(op("matches", v("value"), '^[A-Z]{2}\\d{2}"$'))).toBe(
    'matches(value, "^[A-Z]{2}\\\\d{2}\\"$")',
  );
});

test("other operators, functions and collections are calls; a collection's body reads with item", () => {
  expect(expressionText(op("exists", v("ctx.now")))).toBe("exists(ctx.now)");
  expect(expressionText(op("all", v("data.invoices"), op("gt", v("item.amount"), 0)))).toBe(
    "all(data.invoices, item.amount > 0)",
  );
  expect(expressionText(fn("transferFee", v("data.amount"), v("data.urgent"), fn("isCrossBorder", v("data"))))).toBe(
    "transferFee(data.amount, data.urgent, isCrossBorder(data))",
  );
  expect(expressionText(op("coalesce", v("data.fee"), 0))).toBe("coalesce(data.fee, 0)");
  expect(expressionText(op("list", "approved", "executed"))).toBe('["approved", "executed"]');
  expect(expressionText(op("list"))).toBe("[]");
  expect(expressionText(op("x-luhn", v("data.card")))).toBe("x-luhn(data.card)");
});

test("logic reads with and, or and not; brackets only where the grouping would otherwise be misread", () => {
  expect(expressionText(op("and", op("exists", v("a")), op("ne", v("b"), v("c")), op("lt", v("d"), 1)))).toBe(
    "exists(a) and b != c and d < 1",
  );
  expect(expressionText(op("or", op("and", v("a"), v("b")), v("c")))).toBe("(a and b) or c");
  expect(expressionText(op("and", op("or", v("a"), v("b")), v("c")))).toBe("(a or b) and c");
  expect(expressionText(op("and", op("and", v("a"), v("b")), v("c")))).toBe("a and b and c");
  expect(expressionText(op("not", op("empty", op("trim", op("coalesce", v("data.reference"), "")))))).toBe(
    'not empty(trim(coalesce(data.reference, "")))',
  );
  expect(expressionText(op("not", op("in", v("c"), v("list"))))).toBe("not (c in list)");
  expect(expressionText(op("not", v("data.blocked")))).toBe("not data.blocked");
  expect(expressionText(op("eq", op("not", v("a")), false))).toBe("(not a) == false");
});

test("arithmetic keeps its precedence and left-to-right grouping", () => {
  expect(expressionText(op("add", v("data.amount"), op("coalesce", v("data.fee"), 0)))).toBe(
    "data.amount + coalesce(data.fee, 0)",
  );
  expect(expressionText(op("mul", op("add", v("a"), v("b")), v("c")))).toBe("(a + b) * c");
  expect(expressionText(op("add", v("a"), op("mul", v("b"), v("c"))))).toBe("a + b * c");
  expect(expressionText(op("sub", op("sub", v("a"), v("b")), v("c")))).toBe("a - b - c");
  expect(expressionText(op("sub", v("a"), op("sub", v("b"), v("c"))))).toBe("a - (b - c)");
  expect(expressionText(op("div", v("a"), op("mul", v("b"), v("c"))))).toBe("a / (b * c)");
  expect(expressionText(op("gte", op("add", op("mod", v("d"), 7), 7), 5))).toBe("d % 7 + 7 >= 5");
  expect(expressionText(op("eq", op("eq", v("a"), v("b")), v("c")))).toBe("(a == b) == c");
});

test("if reads as if-then-else, bracketed inside other operators", () => {
  expect(expressionText(op("if", op("eq", v("arg.urgent"), true), v("params.urgentFee"), 0))).toBe(
    "if arg.urgent == true then params.urgentFee else 0",
  );
  expect(expressionText(op("add", op("if", v("u"), 1, 0), 2))).toBe("(if u then 1 else 0) + 2");
});

test("what the engine would not accept as an expression is shown as the manifest holds it", () => {
  expect(expressionText({ op: "eq", args: [1, 2], extra: true })).toBe('{"op":"eq","args":[1,2],"extra":true}');
  expect(expressionText([1, 2])).toBe("[1,2]");
  expect(expressionText({ var: 3 })).toBe('{"var":3}');
  // An operator with the wrong number of operands is still readable, as a call.
  expect(expressionText(op("eq", v("a")))).toBe("eq(a)");
  expect(expressionText(op("and", v("a")))).toBe("and(a)");
});

test("literals are told from expressions", () => {
  expect([isLiteral("a"), isLiteral(1), isLiteral(null), isLiteral({ var: "a" })]).toEqual([true, true, true, false]);
});
