import { expect, test } from "bun:test";
import type { JsonObject, JsonValue } from "../../../src/engine/value/json-value.ts";
import { eq, manifest, order, sameAnswers, v, validation } from "./indexed-and-every-rule.ts";

/**
 * A plan keeps the rules each trigger selects (specification 8: on a client manifest, a request's
 * trigger must be among the rule's `triggers`), so a request walks only those; the selection is
 * the one the rules' triggers give, whatever the order requests come in.
 */

const TRIGGERS: (JsonValue | undefined)[] = [["blur"], ["blur", "submit"], ["change"], undefined, "blur", []];

const rules: JsonObject[] = TRIGGERS.flatMap((triggers, index) => {
  const member: JsonObject = triggers === undefined ? {} : { triggers };
  return [validation(`r.${index}`, member), validation(`filed.${index}`, { ...member, when: eq(v("data.kind"), "a") })];
});

/** The rules a trigger selects, from the rules' `triggers` alone (absent: `submit`; not a list: none). */
function selectedBy(trigger: string | undefined): string[] {
  return rules
    .filter((r) => {
      if (trigger === undefined) return true;
      const triggers = Object.hasOwn(r, "triggers") ? r.triggers : ["submit"];
      return Array.isArray(triggers) && triggers.includes(trigger);
    })
    .map((r) => r.id as string);
}

test("a client request walks the rules its trigger selects, whichever triggers came before", () => {
  const client = manifest(rules, { channel: "client" });
  const triggers = ["blur", "submit", "change", "hover", undefined, "blur", "hover", "submit"];
  const answers = sameAnswers(
    client,
    triggers.map((trigger) => order({ kind: "a" }, trigger === undefined ? {} : { trigger })),
  );
  answers.forEach((answer, index) => {
    expect(answer.findings.map((finding) => finding.rule)).toEqual(selectedBy(triggers[index]));
  });
});

test("a trigger narrows the rules together with the view", () => {
  const placed = rules.map(
    (r, index): JsonObject => ({
      ...r,
      target: { entity: "Order", page: index % 2 === 0 ? "one" : "two" },
    }),
  );
  const [answer] = sameAnswers(manifest(placed, { channel: "client" }), [
    order({ kind: "a" }, { trigger: "blur", view: { page: "one" } }),
  ]);
  const onPageOne = new Set(placed.filter((_, index) => index % 2 === 0).map((r) => r.id));
  expect(answer!.findings.map((finding) => finding.rule)).toEqual(selectedBy("blur").filter((id) => onPageOne.has(id)));
});

test("a server manifest ignores the trigger", () => {
  const [answer] = sameAnswers(manifest(rules), [order({ kind: "a" }, { trigger: "hover" })]);
  expect(answer!.findings.map((finding) => finding.rule)).toEqual(selectedBy(undefined));
});
