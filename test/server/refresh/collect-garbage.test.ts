import { expect, test } from "bun:test";
import { worthCollecting } from "../../../src/server/refresh/collect-garbage.ts";
import type { RulesAsText } from "../../../src/server/snapshot/rules-snapshot.ts";

const load = (rulesets: number, compiled: number): RulesAsText =>
  ({ rulesets: Array.from({ length: rulesets }, () => ({})), compiled, cachePolicy: {} }) as unknown as RulesAsText;

test("a load that compiled more than a tenth of its rulesets is collected after; a reload of a few changed files is not", () => {
  expect(worthCollecting(load(1000, 1000))).toBe(true);
  expect(worthCollecting(load(1000, 101))).toBe(true);
  expect(worthCollecting(load(1000, 100))).toBe(false);
  expect(worthCollecting(load(1000, 1))).toBe(false);
  expect(worthCollecting(load(3, 1))).toBe(true);
  expect(worthCollecting(load(0, 0))).toBe(false);
});
