import { expect, test } from "bun:test";
import { closestName, didYouMean } from "../../../src/engine/names/closest-name.ts";

test("a misspelt name gets the known name a few edits away", () => {
  expect(closestName("tierr", ["tier", "tax"])).toBe("tier");
  expect(closestName("Paymnet", ["Payment", "Refund"])).toBe("Payment");
  expect(closestName("zzz", ["tier", "tax"])).toBeUndefined();
});

test("a short form gets the one known name it starts: warn is warning, err is error", () => {
  expect(closestName("warn", ["info", "warning", "error"])).toBe("warning");
  expect(closestName("err", ["info", "warning", "error"])).toBe("error");
  expect(didYouMean("Trans", ["Transfer", "Customer"])).toBe(": did you mean `Transfer`?");
});

test("a short form that starts several names, or fewer than three letters, suggests none", () => {
  expect(closestName("appr", ["approve", "approval"])).toBeUndefined();
  expect(closestName("wa", ["warning", "info"])).toBeUndefined();
});

test("a name a few edits away wins over a longer name it starts", () => {
  expect(closestName("wam", ["wamble", "warm"])).toBe("warm");
});
