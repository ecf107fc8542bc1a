import { expect, test } from "bun:test";
import type { JsonObject } from "../../src/engine/value/json-value.ts";
import { maskedReads, ruleReads } from "../../src/records/replay/masked-reads.ts";

/** Which rules read a masked member of the request, by every way a rule can read one. */
const rule = (id: string, extra: JsonObject): JsonObject => ({
  id,
  kind: "validation",
  target: { entity: "Transfer" },
  operations: ["create"],
  ...extra,
});
const exists = (path: string): JsonObject => ({ op: "exists", args: [{ var: path }] });
const manifest: JsonObject = {
  fieldTypes: { Transfer: { "/debtor/iban": "Iban", "/beneficiary/iban": "Iban" } },
  functions: {
    ibanOf: { params: ["party"], body: { var: "arg.party.iban" } },
    debtorCountry: { params: [], body: { var: "data.debtor.country" } },
  },
  rules: [
    rule("whole", { assert: exists("data.debtor") }),
    rule("inside", { assert: exists("data.debtor.iban") }),
    rule("beside", { assert: exists("data.debtorName") }),
    rule("slash", { assert: exists("data.a/b") }),
    rule("tilde", { assert: exists("data.x~y") }),
    rule("actor", { assert: exists("actor.id") }),
    rule("by-type", { target: { type: "Iban" }, assert: exists("value") }),
    rule("per-item", { forEach: "/lines", assert: exists("item.iban") }),
    rule("through-a-call", { assert: { fn: "ibanOf", args: [{ var: "data.debtor" }] } }),
    rule("in-a-body", { assert: { fn: "debtorCountry", args: [] } }),
    rule("other-entity", { target: { entity: "Invoice" }, assert: exists("data.debtor.iban") }),
    rule("other-operation", { operations: ["delete"], assert: exists("data.debtor.iban") }),
    {
      id: "checksum",
      kind: "compute",
      target: { entity: "Transfer" },
      operations: ["create"],
      assign: [{ field: "/ibanCheck", value: { var: "data.debtor.iban" } }],
    },
    rule("reads-computed", { assert: exists("data.ibanCheck") }),
  ],
};
const reading = (masked: string[]): Record<string, string> =>
  Object.fromEntries(
    [...maskedReads(ruleReads(manifest, "Transfer", "create"), masked).values()].map((read) => [
      read.rule,
      read.via === undefined ? read.pointer : `${read.pointer} via ${read.via}`,
    ]),
  );

test("a var leading to or into a masked member reads it; a var beside it does not", () => {
  expect(Object.keys(reading(["/actor/id"]))).toEqual(["actor"]);
  expect(reading(["/data/debtor/iban"])).toMatchObject({ whole: "/data/debtor/iban", inside: "/data/debtor/iban" });
  expect(reading(["/data/debtor/iban"]).beside).toBeUndefined();
});

test("members whose names hold / or ~ are matched through the pointer's escapes", () => {
  expect(Object.keys(reading(["/data/a~1b"]))).toEqual(["slash"]);
  expect(Object.keys(reading(["/data/x~0y"]))).toEqual(["tilde"]);
  expect(Object.keys(reading(["/data/a/b"]))).toEqual([]);
});

test("value of a type rule reads the fields bound to its type; item of a forEach rule reads its list's members", () => {
  expect(reading(["/data/beneficiary/iban"])).toEqual({ "by-type": "/data/beneficiary/iban" });
  expect(reading(["/data/lines/3/iban"])).toEqual({ "per-item": "/data/lines/3/iban" });
  expect(reading(["/data/lines"])).toEqual({ "per-item": "/data/lines" });
  expect(reading(["/data/lines/3/amount"])).toEqual({});
});

test("a function reads what its call passes and what its body reads", () => {
  const read = reading(["/data/debtor/country"]);
  expect(read["through-a-call"]).toBe("/data/debtor/country");
  expect(read["in-a-body"]).toBe("/data/debtor/country");
});

test("a field computed from a masked member is masked too; rules of another entity or operation are not looked at", () => {
  const read = reading(["/data/debtor/iban"]);
  expect(read.checksum).toBe("/data/debtor/iban");
  expect(read["reads-computed"]).toBe("/data/ibanCheck via checksum");
  expect(read["other-entity"]).toBeUndefined();
  expect(read["other-operation"]).toBeUndefined();
});
