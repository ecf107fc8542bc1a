import { expect, test } from "bun:test";
import { MASKED_VALUE, maskInPlace, parseRecordMask, RecordMaskError } from "../../src/records/record-mask.ts";

/** RULE_SERVER_DECISION_MASK: what each pointer finds is replaced in the request, and listed. */
const masked = (json: string, mask: string) => {
  const request = JSON.parse(json);
  const pointers = maskInPlace(request, parseRecordMask(mask));
  return { request, pointers };
};

test("members of objects and items of lists are replaced; pointers that find nothing are not listed", () => {
  const { request, pointers } = masked(
    `{"data":{"debtor":{"iban":"DE1","country":"DE"},"cards":["4111","5500"]},"actor":{"id":"u1"}}`,
    "/data/debtor/iban, /data/cards/1,/actor/name,/data/cards/2,/nothing/here",
  );
  expect(pointers).toEqual(["/data/debtor/iban", "/data/cards/1"]);
  expect(request).toEqual({
    data: { debtor: { iban: MASKED_VALUE, country: "DE" }, cards: ["4111", MASKED_VALUE] },
    actor: { id: "u1" },
  });
});

test("a list index is digits without a leading zero or sign", () => {
  expect(masked(`{"list":["a","b"]}`, "/list/01,/list/-1,/list/+1").pointers).toEqual([]);
  expect(masked(`{"list":["a","b"]}`, "/list/0").request).toEqual({ list: [MASKED_VALUE, "b"] });
});

test("a whole object can be masked; a pointer into it afterwards finds nothing", () => {
  expect(masked(`{"actor":{"id":"u1"}}`, "/actor,/actor/id")).toEqual({
    request: { actor: MASKED_VALUE },
    pointers: ["/actor"],
  });
});

test('pointer escapes: ~1 is /, ~0 is ~, and an empty token is the member named ""', () => {
  const { request, pointers } = masked(`{"a/b":"s1","x~y":"s2","":{"x":"s3"},"x":"kept"}`, "/a~1b,/x~0y,//x");
  expect(pointers).toEqual(["/a~1b", "/x~0y", "//x"]);
  expect(request).toEqual({ "a/b": MASKED_VALUE, "x~y": MASKED_VALUE, "": { x: MASKED_VALUE }, x: "kept" });
});

test("a member named __proto__ is masked as the member it is, and no prototype changes", () => {
  const { request, pointers } = masked(
    `{"data":{"__proto__":{"pin":"1234"}},"__proto__":"secret"}`,
    "/data/__proto__/pin,/__proto__",
  );
  expect(pointers).toEqual(["/data/__proto__/pin", "/__proto__"]);
  expect(JSON.stringify(request)).toBe(`{"data":{"__proto__":{"pin":"***"}},"__proto__":"***"}`);
  expect(Object.getPrototypeOf(request)).toBe(Object.prototype);
  // Without such a member the pointer finds nothing: the prototype's accessor is no member.
  expect(masked(`{"data":{}}`, "/data/__proto__").pointers).toEqual([]);
});

test("a mask that is not a list of JSON Pointers is refused", () => {
  for (const setting of ["data/iban", "/", "/a,b"]) expect(() => parseRecordMask(setting)).toThrow(RecordMaskError);
  expect(parseRecordMask(" ").pointers).toEqual([]);
});
