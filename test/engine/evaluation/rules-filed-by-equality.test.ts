import { describe, expect, test } from "bun:test";
import type { JsonObject, JsonValue } from "../../../src/engine/value/json-value.ts";
import { and, eq, manifest, order, rule, sameAnswers, v, validation } from "./indexed-and-every-rule.ts";

/**
 * Rules whose `when` is, or starts with, `eq` of a variable and a literal are filed by the literal:
 * an evaluation passes over those whose literal differs from the value, and answers exactly as if
 * it had evaluated every rule.
 */

/** Literals of every kind an equality files, some equal under one kind and not another. */
const LITERALS: JsonValue[] = ["DE", "AT", "1", 1, 0, -0, 1.5, true, "true", false, null, ""];

/** Many rules filed under `data.country`, in the three shapes, mixed with rules that are not filed. */
function countryRules(): JsonObject[] {
  const rules: JsonObject[] = [];
  LITERALS.forEach((literal, index) => {
    for (let copy = 0; copy < 3; copy++) {
      const id = `v.${index}.${copy}`;
      const when = [
        eq(v("data.country"), literal),
        and(eq(literal, v("data.country")), { op: "gt", args: [v("data.amount"), 10] }),
        and(eq(v("data.country"), literal)),
      ][copy]!;
      // Priorities out of document order: the findings' order is the engine's sort, not the index's.
      rules.push(validation(id, { when, priority: (index * 7 + copy) % 5 }));
    }
    rules.push(validation(`other.${index}`, { when: { op: "ne", args: [v("data.country"), literal] }, priority: 2 }));
    rules.push(validation(`always.${index}`, { priority: index % 3 }));
  });
  // The equality is not first: nothing to file under.
  rules.push(
    validation("second", { when: and({ op: "gt", args: [v("data.amount"), 10] }, eq(v("data.country"), "DE")) }),
  );
  return rules;
}

const COUNTRIES: (JsonValue | undefined)[] = [
  "DE",
  "FR",
  undefined,
  "1",
  1,
  1.0,
  0,
  1.5,
  true,
  "true",
  false,
  null,
  "",
  { code: "DE" },
  ["DE"],
];

const requestsFor = (amounts: number[]): JsonObject[] =>
  COUNTRIES.flatMap((country) =>
    amounts.map((amount) => order(country === undefined ? { amount } : { country, amount })),
  );

describe("validation rules filed by the literal of their first equality", () => {
  test("answer as evaluating every rule: matching, not matching, missing, another type, null, objects and lists", () => {
    const answers = sameAnswers(manifest(countryRules()), requestsFor([5, 50]));
    expect(answers.length).toBe(COUNTRIES.length * 2);
  });

  test("a string does not equal the number it spells, nor a boolean its name; 1 and 1.0, 0 and -0 are one number", () => {
    const fired = (country: JsonValue) =>
      sameAnswers(manifest(countryRules()), [order({ country, amount: 50 })])[0]!
        .findings.map((finding) => finding.rule)
        .filter((id) => id.startsWith("v."));
    expect(fired("1").sort()).toEqual(["v.2.0", "v.2.1", "v.2.2"]);
    expect(fired(1).sort()).toEqual(["v.3.0", "v.3.1", "v.3.2"]);
    expect(fired(0).sort()).toEqual(["v.4.0", "v.4.1", "v.4.2", "v.5.0", "v.5.1", "v.5.2"]);
    expect(fired(true).sort()).toEqual(["v.7.0", "v.7.1", "v.7.2"]);
    expect(fired("true").sort()).toEqual(["v.8.0", "v.8.1", "v.8.2"]);
    expect(fired(null).sort()).toEqual(["v.10.0", "v.10.1", "v.10.2"]);
  });

  test("a missing value equals null", () => {
    const [answer] = sameAnswers(manifest(countryRules()), [order({ amount: 50 })]);
    expect(answer!.findings.filter((finding) => finding.rule.startsWith("v.")).map((finding) => finding.rule)).toEqual(
      expect.arrayContaining(["v.10.0", "v.10.1", "v.10.2"]),
    );
  });

  test("findings keep the order of priorities and documents, filed or not", () => {
    const rules = countryRules();
    const [answer] = sameAnswers(manifest(rules), [order({ country: "DE", amount: 50 })]);
    // For DE: the rules filed under "DE", every `ne` but DE's own, every rule without a `when`, and `second`.
    const applying = rules.filter((r) => /^(v\.0\.|other\.([1-9]|1[01])$|always\.|second$)/.test(r.id as string));
    const expected = applying
      .map((r, index) => ({ id: r.id as string, priority: (r.priority as number | undefined) ?? 0, index }))
      .sort((a, b) => b.priority - a.priority || a.index - b.index)
      .map((r) => r.id);
    expect(answer!.findings.map((finding) => finding.rule)).toEqual(expected);
  });

  test("variables of the other roots a request fixes are filed too: original, actor, ctx, params", () => {
    const rules = [
      validation("original", { when: eq(v("original.status"), "approved") }),
      validation("actor", { when: eq("clerk", v("actor.id")) }),
      validation("ctx", { when: and(eq(v("ctx.channel"), "web"), true) }),
      validation("params", { when: eq(v("params.limit"), 10) }),
      validation("params.other", { when: eq(v("params.limit"), 11) }),
    ];
    const [matching, other] = sameAnswers(manifest(rules), [
      order({}, { original: { status: "approved" }, actor: { id: "clerk" }, ctx: { channel: "web" } }),
      order({}, { original: { status: "open" }, actor: { id: "other" }, ctx: {} }),
    ]);
    expect(matching!.findings.map((finding) => finding.rule)).toEqual(["original", "actor", "ctx", "params"]);
    expect(other!.findings.map((finding) => finding.rule)).toEqual(["params"]);
  });
});

describe("compute, state and action rules filed by their first equality", () => {
  const rules = [
    rule("c.tier", "compute", {
      priority: 50,
      assign: [
        {
          field: "/tier",
          value: { op: "if", args: [{ op: "gt", args: [v("data.amount"), 100] }, "gold", "silver"] },
        },
      ],
    }),
    rule("c.gold", "compute", {
      priority: 40,
      when: eq(v("data.tier"), "gold"),
      assign: [{ field: "/discount", value: 10 }],
    }),
    rule("c.silver", "compute", {
      priority: 40,
      when: and(eq(v("data.tier"), "silver"), true),
      assign: [{ field: "/discount", value: 1 }],
    }),
    // Reads what the rules before it wrote: the index reads the data again after each write.
    rule("c.big", "compute", {
      priority: 30,
      when: eq(v("data.discount"), 10),
      assign: [{ field: "/big", value: true }],
    }),
    rule("c.small", "compute", {
      priority: 30,
      when: eq(v("data.discount"), 1),
      assign: [{ field: "/big", value: false }],
    }),
    rule("c.vat", "compute", {
      priority: 20,
      when: eq(v("data.country"), "DE"),
      assign: [{ field: "/vat", value: 19 }],
    }),
    rule("c.none", "compute", { priority: 10, when: eq(v("data.big"), null), assign: [{ field: "/unset", value: 1 }] }),
    rule("s.gold", "state", {
      when: eq(v("data.tier"), "gold"),
      effects: [{ field: "/tier", set: { visible: true } }],
    }),
    rule("s.vat", "state", { when: eq(v("data.vat"), 19), effects: [{ field: "/vat", set: { readOnly: true } }] }),
    validation("v.big", { when: eq(v("data.big"), true) }),
    validation("v.small", { when: eq(v("data.big"), false) }),
    rule("a.gold", "action", {
      when: eq(v("data.tier"), "gold"),
      commands: [{ name: "gold", type: "event", idempotencyKey: ["g", v("data.amount")], payload: {} }],
    }),
    rule("a.de", "action", {
      when: eq(v("data.country"), "DE"),
      commands: [{ name: "de", type: "event", idempotencyKey: ["d"], payload: { vat: v("data.vat") } }],
    }),
  ];

  test("compute rules see what earlier compute rules wrote; later phases see all of it", () => {
    const answers = sameAnswers(manifest(rules), [
      order({ amount: 500, country: "DE" }),
      order({ amount: 5, country: "AT" }),
      order({ amount: 500, tier: "silver" }),
      order({ country: "DE" }),
    ]);
    expect(answers[0]!.effects.map((effect) => effect.rule)).toEqual([
      "c.tier",
      "c.gold",
      "c.big",
      "c.vat",
      "s.gold",
      "s.vat",
    ]);
    expect(answers[0]!.findings.map((finding) => finding.rule)).toEqual(["v.big"]);
    expect(answers[1]!.effects.map((effect) => effect.rule)).toEqual(["c.tier", "c.silver", "c.small"]);
    expect(answers[1]!.findings.map((finding) => finding.rule)).toEqual(["v.small"]);
  });

  test("action rules are filed like the others once the decision allows them", () => {
    const allowing = manifest(rules.filter((r) => r.kind !== "validation"));
    const [gold, other] = sameAnswers(allowing, [order({ amount: 500, country: "DE" }), order({ amount: 5 })]);
    expect(gold!.commands.map((command) => command.name)).toEqual(["gold", "de"]);
    expect(other!.commands).toEqual([]);
  });
});
