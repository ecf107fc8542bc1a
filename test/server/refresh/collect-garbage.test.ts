import { expect, test } from "bun:test";
import { worthCollecting, worthCollectingAfterLoad } from "../../../src/server/refresh/collect-garbage.ts";
import type { RulesAsText } from "../../../src/server/snapshot/rules-snapshot.ts";

/** `rulesets` rulesets, the first `compiled` of them compiled at this load into bundles of `bytes` bytes of JSON each. */
const load = (rulesets: number, compiled: number, bytes = 45_000): RulesAsText =>
  ({
    rulesets: Array.from({ length: rulesets }, (_, index) =>
      index < compiled ? { bundleText: "x".repeat(bytes) } : { kept: {} },
    ),
    compiled,
    cachePolicy: {},
  }) as unknown as RulesAsText;

test("a load that compiled more than a tenth of its rulesets is collected after; a reload of a few changed files is not", () => {
  expect(worthCollecting(load(1000, 1000))).toBe(true);
  expect(worthCollecting(load(1000, 101))).toBe(true);
  expect(worthCollecting(load(1000, 100))).toBe(false);
  expect(worthCollecting(load(1000, 1))).toBe(false);
  expect(worthCollecting(load(0, 0))).toBe(false);
});

test("a load whose compiled bundles are small together is not collected: a few rulesets leave little garbage", () => {
  expect(worthCollecting(load(3, 3, 40_000))).toBe(false);
  expect(worthCollecting(load(3, 1, 2 * 1024 * 1024))).toBe(true);
  expect(worthCollecting(load(100, 100, 45_000))).toBe(true);
});

test("once a load is served, a heap of 64 MiB or more is collected at once; a smaller one is left to the collector", () => {
  expect(worthCollectingAfterLoad(300 * 1024 * 1024)).toBe(true);
  expect(worthCollectingAfterLoad(64 * 1024 * 1024)).toBe(true);
  expect(worthCollectingAfterLoad(20 * 1024 * 1024)).toBe(false);
  expect(typeof worthCollectingAfterLoad()).toBe("boolean");
});
