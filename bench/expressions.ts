/**
 * Prepared expressions evaluated per second on a mixed set: integer, money and decimal arithmetic,
 * comparisons, strings, a pattern, a collection and a date.
 */
import { prepareExpression } from "../src/engine/expression/prepare-expression.ts";
import { Scope } from "../src/engine/expression/scope.ts";
import { toLeavingValue } from "../src/engine/value/leaving-value.ts";
import { measure, printTable, type Measurement } from "./measure.ts";

const data = {
  quantity: 7,
  unitPrice: 19.99,
  email: "ada@example.com",
  born: "1990-05-17",
  lines: [{ amount: 1.25 }, { amount: 2.5 }, { amount: 10 }],
  ratio: 1 / 3,
};
const scope = new Scope(data, null, { roles: ["clerk"] }, { now: "2026-11-21" }, { limit: 100 });

const expressions: Record<string, unknown> = {
  "integer add": { op: "add", args: [{ var: "data.quantity" }, 3] },
  "money multiply": { op: "mul", args: [{ var: "data.quantity" }, { var: "data.unitPrice" }] },
  "decimal divide (general path)": { op: "div", args: [{ var: "data.unitPrice" }, 3] },
  "comparison with params": { op: "lte", args: [{ var: "data.quantity" }, { var: "params.limit" }] },
  "and of three tests": {
    op: "and",
    args: [
      { op: "exists", args: [{ var: "data.email" }] },
      { op: "gt", args: [{ var: "data.quantity" }, 0] },
      { op: "in", args: ["clerk", { var: "actor.roles" }] },
    ],
  },
  "matches an e-mail pattern": { op: "matches", args: [{ var: "data.email" }, "^[^@]+@[^@]+\\.[a-z]{2,}$"] },
  "sum over lines": { op: "sum", args: [{ var: "data.lines" }, { var: "item.amount" }] },
  yearsBetween: { op: "yearsBetween", args: [{ var: "data.born" }, { var: "ctx.now" }] },
  "concat and upper": { op: "upper", args: [{ op: "concat", args: ["id-", { var: "data.email" }] }] },
};

export function benchExpressions(): Measurement[] {
  const prepared = Object.entries(expressions).map(
    ([name, expression]) => [name, prepareExpression(expression)] as const,
  );
  const rows = prepared.map(([name, node]) => measure(name, () => toLeavingValue(node(scope, 0)), 1));
  let next = 0;
  rows.push(
    measure("the mixed set in turn", () => {
      const node = prepared[next++ % prepared.length]![1];
      toLeavingValue(node(scope, 0));
    }),
  );
  printTable("Prepared expressions evaluated per second", rows);
  return rows;
}

if (import.meta.main) benchExpressions();
