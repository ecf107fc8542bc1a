import { describe, expect, test } from "bun:test";
import type { JsonObject } from "../../../src/engine/value/json-value.ts";
import { and, eq, manifest, order, rule, sameAnswers, v, validation } from "./indexed-and-every-rule.ts";

/**
 * An evaluation passes over a rule only when evaluating it would certainly give "does not apply":
 * a rule that would fail closed still fails, with the same finding, and an error in an action
 * rule still denies.
 */

const ERROR_CODE = "RULE-EVALUATION-ERROR";
const divisionByZero = { op: "gt", args: [{ op: "div", args: [1, v("data.zero")] }, 1] };
const failing = { op: "x-fail", args: [] };

const codes = (findings: { rule: string; code: string }[]) => findings.map((finding) => [finding.rule, finding.code]);

describe("a filed rule whose `when` fails after its equality", () => {
  const rules: JsonObject[] = [];
  for (let copy = 0; copy < 4; copy++) {
    rules.push(validation(`divides.${copy}`, { when: and(eq(v("data.kind"), "a"), divisionByZero) }));
    rules.push(validation(`operator.${copy}`, { when: and(eq(v("data.kind"), "b"), failing) }));
    rules.push(validation(`function.${copy}`, { when: and(eq(v("data.kind"), "c"), { fn: "missing", args: [] }) }));
  }

  test("fails closed when the equality holds, and is passed over when it does not", () => {
    const [a, b, c, other] = sameAnswers(manifest(rules), [
      order({ kind: "a", zero: 0 }),
      order({ kind: "b" }),
      order({ kind: "c" }),
      order({ kind: "z", zero: 0 }),
    ]);
    expect(codes(a!.findings)).toEqual([0, 1, 2, 3].map((copy) => [`divides.${copy}`, ERROR_CODE]));
    expect(a!.decision).toBe("deny");
    expect(codes(b!.findings)).toEqual([0, 1, 2, 3].map((copy) => [`operator.${copy}`, ERROR_CODE]));
    expect(codes(c!.findings)).toEqual([0, 1, 2, 3].map((copy) => [`function.${copy}`, ERROR_CODE]));
    expect(other!.findings).toEqual([]);
    expect(other!.decision).toBe("allow");
  });
});

describe("a `when` that only looks like an equality", () => {
  test("is never filed: it fails closed as it would alone", () => {
    const malformed: JsonObject[] = [
      { op: "eq", args: [v("data.kind"), "a", "b"] },
      { op: "eq", args: [v("data.kind"), "a"], note: "x" },
      { op: "eq", args: [{ var: "data.kind", note: "x" }, "a"] },
      { op: "and", args: [eq(v("data.kind"), "a")], note: "x" },
      { op: "eq", args: [v("data.kind"), [1]] },
    ];
    const rules = malformed.flatMap((when, index) =>
      [0, 1].map((copy) => validation(`malformed.${index}.${copy}`, { when })),
    );
    const [answer] = sameAnswers(manifest(rules), [order({ kind: "z" })]);
    expect(codes(answer!.findings)).toEqual(rules.map((r) => [r.id as string, ERROR_CODE]));
  });
});

describe("rules that start with the same condition", () => {
  const shared = (condition: JsonObject, count: number, extra: JsonObject = {}): JsonObject[] =>
    Array.from({ length: count }, (_, copy) =>
      validation(`shared.${copy}`, { when: and(condition, divisionByZero), ...extra }),
    );

  test("each fail closed when the condition fails, as each would alone", () => {
    const rules = shared({ op: "gt", args: [v("data.amount"), 10] }, 5);
    const [fails, passes, holds] = sameAnswers(manifest(rules), [
      order({ amount: "ten" }),
      order({ amount: 5 }),
      order({ amount: 50, zero: 0 }),
    ]);
    expect(codes(fails!.findings)).toEqual([0, 1, 2, 3, 4].map((copy) => [`shared.${copy}`, ERROR_CODE]));
    expect(fails!.findings[0]!.detail).toContain("gt");
    expect(passes!.findings).toEqual([]);
    expect(codes(holds!.findings)).toEqual([0, 1, 2, 3, 4].map((copy) => [`shared.${copy}`, ERROR_CODE]));
  });

  test("each fail closed when the condition, at its depth in their `when`, passes the depth limit", () => {
    // 126 `not`s, the `eq` at depth 127 and its arguments at 128 on their own: at 129 as the first argument of an `and`.
    let deep: JsonObject = eq(v("data.x"), "x");
    for (let level = 0; level < 126; level++) deep = { op: "not", args: [deep] };
    const rules = [0, 1, 2].map((copy) => validation(`deep.${copy}`, { when: and(deep, true) }));
    const [answer] = sameAnswers(manifest(rules), [order({})]);
    expect(codes(answer!.findings)).toEqual(["deep.0", "deep.1", "deep.2"].map((id) => [id, ERROR_CODE]));
    expect(answer!.findings[0]!.detail).toContain("128");
  });

  test("each fail closed when the condition is not a boolean, first in an `and` or the whole `when`", () => {
    const whole = [0, 1, 2].map((copy) => validation(`whole.${copy}`, { when: v("data.flag") }));
    const [answer] = sameAnswers(manifest([...shared(v("data.flag"), 3), ...whole]), [order({ flag: "yes" })]);
    expect(codes(answer!.findings)).toEqual(
      ["shared.0", "shared.1", "shared.2", "whole.0", "whole.1", "whole.2"].map((id) => [id, ERROR_CODE]),
    );
  });

  test("each fail closed when the condition is not a boolean at one item or one bound field", () => {
    const rules = [
      ...[0, 1].map((copy) => validation(`item.${copy}`, { forEach: "/items", when: v("item.flag") })),
      ...[0, 1].map((copy) => validation(`field.${copy}`, { target: { type: "Code" }, when: v("value") })),
    ];
    const source = manifest(rules, { fieldTypes: { Order: { "/a": "Code", "/b": "Code" } } });
    const [answer] = sameAnswers(source, [order({ items: [{ flag: false }, { flag: "yes" }], a: false, b: "yes" })]);
    expect(codes(answer!.findings)).toEqual(["item.0", "item.1", "field.0", "field.1"].map((id) => [id, ERROR_CODE]));
  });

  test("rules over a list fail closed when it is not a list, whatever their `when` starts with", () => {
    const rules = [
      ...shared({ op: "gt", args: [v("item.qty"), 0] }, 3, { forEach: "/items" }),
      validation("filed", { forEach: "/items", when: eq(v("data.kind"), "a") }),
      validation("plain", { forEach: "/items" }),
      validation("plain.too", { forEach: "/items" }),
    ];
    const [notAList, missing, empty, allFalse, oneFails] = sameAnswers(manifest(rules), [
      order({ items: "many", kind: "z" }),
      order({ kind: "z" }),
      order({ items: [], kind: "z" }),
      order({ items: [{ qty: 0 }, { qty: -1 }], kind: "z" }),
      order({ items: [{ qty: 0 }, { qty: "x" }], kind: "z" }),
    ]);
    expect(codes(notAList!.findings)).toEqual(
      ["shared.0", "shared.1", "shared.2", "filed", "plain", "plain.too"].map((id) => [id, ERROR_CODE]),
    );
    expect(missing!.findings).toEqual([]);
    expect(empty!.findings).toEqual([]);
    expect(codes(allFalse!.findings)).toEqual([
      ["plain", "PLAIN"],
      ["plain", "PLAIN"],
      ["plain.too", "PLAIN.TOO"],
      ["plain.too", "PLAIN.TOO"],
    ]);
    expect(oneFails!.findings.slice(0, 3).map((finding) => finding.code)).toEqual([ERROR_CODE, ERROR_CODE, ERROR_CODE]);
  });
});

describe("an action rule that fails", () => {
  test("still denies and drops every command, though other action rules are passed over", () => {
    const command = (name: string) => ({ name, type: "event", idempotencyKey: [name], payload: {} });
    const rules = [
      rule("a.first", "action", { commands: [command("first")] }),
      ...Array.from({ length: 3 }, (_, copy) =>
        rule(`a.filed.${copy}`, "action", { when: eq(v("data.kind"), "b"), commands: [command(`b${copy}`)] }),
      ),
      rule("a.fails", "action", { when: and(eq(v("data.kind"), "a"), failing), commands: [command("never")] }),
    ];
    const [fails, passes] = sameAnswers(manifest(rules), [order({ kind: "a" }), order({ kind: "c" })]);
    expect(fails!.decision).toBe("deny");
    expect(fails!.commands).toEqual([]);
    expect(codes(fails!.findings)).toEqual([["a.fails", ERROR_CODE]]);
    expect(passes!.commands.map((c) => c.name)).toEqual(["first"]);
  });
});

describe("rules run per field bound to a type", () => {
  test("are passed over only for an entity that binds no field of the type", () => {
    const rules = [0, 1, 2].map((copy) =>
      validation(`typed.${copy}`, { target: { type: "Code" }, assert: { op: "ne", args: [v("value"), "bad"] } }),
    );
    const source = manifest(rules, { fieldTypes: { Order: { "/a": "Code", "/b": "Code" }, Other: { "/a": "Name" } } });
    const [bound, unbound] = sameAnswers(source, [
      order({ a: "bad", b: "bad" }),
      { entity: "Other", operation: "create", data: { a: "bad" } },
    ]);
    expect(bound!.findings.map((finding) => [finding.rule, finding.fields])).toEqual([
      ["typed.0", ["/a"]],
      ["typed.0", ["/b"]],
      ["typed.1", ["/a"]],
      ["typed.1", ["/b"]],
      ["typed.2", ["/a"]],
      ["typed.2", ["/b"]],
    ]);
    expect(unbound!.findings).toEqual([]);
  });
});

describe("one condition at different places", () => {
  test("is decided where each rule evaluates it: once, per item, per bound field", () => {
    const present = (path: string) => ({ op: "exists", args: [v(path)] });
    const rules = [
      ...[0, 1].map((copy) => validation(`once.item.${copy}`, { when: present("item") })),
      ...[0, 1].map((copy) => validation(`each.${copy}`, { forEach: "/items", when: present("item") })),
      ...[0, 1].map((copy) => validation(`once.value.${copy}`, { when: present("value") })),
      ...[0, 1].map((copy) => validation(`typed.${copy}`, { target: { type: "Code" }, when: present("value") })),
    ];
    const source = manifest(rules, { fieldTypes: { Order: { "/code": "Code" } } });
    const [answer] = sameAnswers(source, [order({ items: [1], code: "A" })]);
    expect(answer!.findings.map((finding) => finding.rule)).toEqual(["each.0", "each.1", "typed.0", "typed.1"]);
  });
});
