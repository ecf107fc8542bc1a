import { expect, test } from "bun:test";
import { LoadedRuleset } from "../../src/engine/bundle/loaded-ruleset.ts";
import { MOST_PLAN_ANSWERS, PlanAnswerCache } from "../../src/plans/plan-answer-cache.ts";

/** Plan answers kept by ruleset and request text: apart per ruleset, bounded, least recently used first out. */
function ruleset(): LoadedRuleset {
  return LoadedRuleset.fromManifest({
    ruleCascade: "1.0.0",
    id: "t.cache",
    version: "1.0.0",
    checksum: `sha256:${"0".repeat(64)}`,
    channel: "server",
    rules: [],
  });
}

test("an answer is kept for its ruleset and request text only", () => {
  const cache = new PlanAnswerCache<string>();
  const [one, other] = [ruleset(), ruleset()];
  cache.set(one, '{"entity":"E"}', "answer");
  expect(cache.get(one, '{"entity":"E"}')).toBe("answer");
  expect(cache.get(other, '{"entity":"E"}')).toBeUndefined();
  expect(cache.get(one, '{"entity": "E"}')).toBeUndefined();
});

test("past the bound the least recently used answer goes first", () => {
  const cache = new PlanAnswerCache<number>();
  const rules = ruleset();
  for (let i = 0; i < MOST_PLAN_ANSWERS; i++) cache.set(rules, `r${i}`, i);
  expect(cache.get(rules, "r0")).toBe(0); // used: now the most recent
  cache.set(rules, "new", -1);
  expect(cache.get(rules, "r0")).toBe(0);
  expect(cache.get(rules, "r1")).toBeUndefined();
  expect(cache.get(rules, "new")).toBe(-1);
});
