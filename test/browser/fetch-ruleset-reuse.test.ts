import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fetchRuleset } from "../../src/browser/rule-cascade.ts";
import { CASES_DIR } from "../support/golden-files.ts";

/**
 * fetchRuleset keeps what it loaded: a 304 reuses the ruleset only when it was loaded with the
 * same options (custom operators, code generation); otherwise the kept manifest is loaded again.
 */
const manifest = JSON.stringify(
  (JSON.parse(readFileSync(join(CASES_DIR, "evaluations", "manifest-client.json"), "utf8")) as { manifest: unknown })
    .manifest,
);

/** A server that answers the manifest with an ETag, then 304 to a request that names it. */
const server: typeof fetch = (async (_address: string, init?: RequestInit) => {
  const headers = new Headers(init?.headers);
  if (headers.get("If-None-Match") === '"v1"') return new Response(null, { status: 304, headers: { ETag: '"v1"' } });
  return new Response(manifest, { status: 200, headers: { ETag: '"v1"', "Content-Type": "application/json" } });
}) as unknown as typeof fetch;

test("a 304 reuses the ruleset loaded with the same options and loads it again for other options", async () => {
  const base = "https://reuse.test";
  const operators = { "x-one": () => 1 };
  const first = await fetchRuleset(base, "shop", { fetch: server });
  expect(await fetchRuleset(base, "shop", { fetch: server })).toBe(first);
  const generated = await fetchRuleset(base, "shop", { fetch: server, codeGeneration: true });
  expect(generated).not.toBe(first);
  expect(await fetchRuleset(base, "shop", { fetch: server, codeGeneration: true })).toBe(generated);
  const withOperators = await fetchRuleset(base, "shop", { fetch: server, codeGeneration: true, operators });
  expect(withOperators).not.toBe(generated);
  expect(await fetchRuleset(base, "shop", { fetch: server, codeGeneration: true, operators })).toBe(withOperators);
  const request = { entity: "Order", operation: "create", data: { name: "test" } };
  expect(generated.evaluate(request)).toEqual(first.evaluate(request));
});
