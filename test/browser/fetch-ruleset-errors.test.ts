import { expect, test } from "bun:test";
import { fetchRuleset, FetchRulesetError } from "../../src/browser/rule-cascade.ts";

/** fetchRuleset's refusals: an unwanted answer names its status and problem title; no answer is status 0. */
const answering = (response: Response): typeof fetch => (async () => response) as unknown as typeof fetch;

test("a 404 with a problem document rejects with FetchRulesetError naming the status and the title", async () => {
  const problem = new Response(JSON.stringify({ type: "about:blank", title: "no ruleset nope", status: 404 }), {
    status: 404,
  });
  const refused = await fetchRuleset("https://rules.test/base", "nope", { fetch: answering(problem) }).catch(
    (error: unknown) => error,
  );
  expect(refused).toBeInstanceOf(FetchRulesetError);
  expect(refused).toMatchObject({ code: "FETCH_FAILED", status: 404 });
  expect((refused as Error).message).toBe(
    "https://rules.test/base/rulesets/nope/manifest?channel=client answered 404: no ruleset nope",
  );
});

test("an answer that is not a problem document still says its status", async () => {
  const refused = await fetchRuleset("https://rules.test", "x", {
    fetch: answering(new Response("<html>", { status: 502 })),
  }).catch((error: unknown) => error);
  expect((refused as Error).message).toBe("https://rules.test/rulesets/x/manifest?channel=client answered 502");
});

test("no answer at all is status 0", async () => {
  const unreachable = (async () => {
    throw new TypeError("connection refused");
  }) as unknown as typeof fetch;
  const refused = await fetchRuleset("https://rules.test", "x", { fetch: unreachable }).catch(
    (error: unknown) => error,
  );
  expect(refused).toMatchObject({ name: "FetchRulesetError", status: 0 });
  expect((refused as Error).message).toContain("connection refused");
});
