import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { goldenEvaluations } from "../../support/golden-evaluation-requests.ts";
import { assertConformsToOpenApi } from "../../support/openapi-conformance.ts";
import { parseExposition } from "../../support/prometheus-exposition.ts";
import { rulesDirectory } from "../../support/rules-directory.ts";
import { serverForSuite } from "../../support/server-for-suite.ts";
import { serverEnvironment, startServer, TOKEN, type ServerProcess } from "../../support/server-process.ts";

/** `POST /evaluations/batch` against real server processes, with 0 and with 2 workers. */
const auth = { Authorization: `Bearer ${TOKEN}` };
const SHOP = "shop.orders.order";
const order = {
  ruleset: SHOP,
  entity: "Order",
  operation: "create",
  data: { quantity: 3, unitPrice: 0.1, customer: { email: "a@b.c" } },
  actor: { id: "u1", roles: ["clerk"] },
};

type Entry = { id?: string | number; status: number; result?: unknown; problem?: unknown };

/** A body sent as it is written, not as the JSON of a value. */
const raw = (text: string): Blob => new Blob([text]);

const send = (
  server: ServerProcess,
  path: string,
  body: unknown,
  query = "",
  headers: Record<string, string> = auth,
): Promise<Response> =>
  fetch(`${server.url}${path}${query}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: body instanceof Blob || body instanceof ReadableStream ? body : JSON.stringify(body),
  });

/** The entries of a batch's answer, which must be 200 JSON as openapi.yaml describes it. */
async function results(server: ServerProcess, body: unknown, query = ""): Promise<Entry[]> {
  const response = await send(server, "/evaluations/batch", body, query);
  const text = await response.text();
  if (response.status !== 200) throw new Error(`the batch was answered ${response.status}: ${text}`);
  expect(response.headers.get("cache-control")).toBe("no-store");
  const answer = JSON.parse(text) as { results: Entry[] };
  assertConformsToOpenApi("POST", "/evaluations/batch", 200, response.headers.get("content-type"), answer);
  return answer.results;
}

/** What `POST /evaluations` answers the same request alone, as a batch entry. */
async function alone(server: ServerProcess, body: unknown, query = ""): Promise<Entry> {
  const response = await send(server, "/evaluations", body, query);
  const answer = await response.json();
  return response.status === 200 ? { status: 200, result: answer } : { status: response.status, problem: answer };
}

/** A batch refused whole: its status and problem title. */
async function refusal(
  server: ServerProcess,
  body: unknown,
  query = "",
  headers: Record<string, string> = auth,
): Promise<string> {
  const response = await send(server, "/evaluations/batch", body, query, headers);
  const problem = (await response.json()) as { title: string };
  assertConformsToOpenApi("POST", "/evaluations/batch", response.status, response.headers.get("content-type"), problem);
  return `${response.status} ${problem.title}`;
}

const nested = (depth: number): unknown => (depth === 0 ? 1 : { deeper: nested(depth - 1) });

const golden = goldenEvaluations();
const goldenFiles = Object.fromEntries([...golden.bundles].map(([id, bundle]) => [`${id}.bundle.json`, bundle]));

for (const workers of ["0", "2"]) {
  describe(`with ${workers} workers`, () => {
    const suite = serverForSuite({ RULE_SERVER_WORKERS: workers }, goldenFiles);

    test("every golden evaluation case, sent as one batch, is answered item by item as it is alone", async () => {
      expect(golden.requests.length).toBeGreaterThan(200);
      const entries = await results(suite.server, { items: golden.requests.map((request) => request.body) });
      expect(entries).toHaveLength(golden.requests.length);
      for (const [index, request] of golden.requests.entries()) {
        expect({ name: request.name, ...entries[index] }).toEqual({
          name: request.name,
          ...(await alone(suite.server, request.body)),
        });
      }
      // The corpus holds refusals as well as results: both kinds were compared.
      expect(entries.some((entry) => entry.status === 400)).toBe(true);
      expect(entries.filter((entry) => entry.status === 200).length).toBeGreaterThan(150);
    });

    test("an item's members replace the defaults' members of the same name, whole; its id is echoed, never evaluated", async () => {
      const { data, ...shared } = order;
      const defaults = { ...shared, data, locale: "de" };
      const items = [
        { id: "plain" },
        { id: "new-data", data: { quantity: 150, unitPrice: 2 } },
        { id: 7, operation: "delete" },
        { ruleset: "library.base", entity: "Loan", data: {} },
        { id: "no-locale", locale: null },
      ];
      const entries = await results(suite.server, { defaults, items });
      const expected = [
        { id: "plain", ...(await alone(suite.server, defaults)) },
        // No deep merge: the item's data has no customer, so the e-mail rule finds it missing.
        { id: "new-data", ...(await alone(suite.server, { ...defaults, data: { quantity: 150, unitPrice: 2 } })) },
        { id: 7, ...(await alone(suite.server, { ...defaults, operation: "delete" })) },
        await alone(suite.server, { ...defaults, ruleset: "library.base", entity: "Loan", data: {} }),
        { id: "no-locale", ...(await alone(suite.server, { ...defaults, locale: null })) },
      ];
      expect(entries).toEqual(expected);
      const codes = (entry: Entry): string[] =>
        (entry.result as { findings: { code: string }[] }).findings.map((finding) => finding.code);
      expect(codes(entries[1]!)).toEqual(expect.arrayContaining(["ORD-QTY-001", "ORD-EML-001"]));
      expect(codes(entries[0]!)).toEqual([]);
      // The id is not part of the request: no schema warning or finding names it.
      expect(JSON.stringify(entries[0]!.result)).not.toContain("plain");
      // Without defaults, each item is a whole request.
      expect(await results(suite.server, { items: [{ id: "x", ...order }] })).toEqual([
        { id: "x", ...(await alone(suite.server, order)) },
      ]);
    });

    test("a bad item is answered, in its place, with the problem it gets alone; the others are evaluated", async () => {
      const bad: [string, unknown][] = [
        ["not an object", [1, 2]],
        ["no entity", { ruleset: SHOP, operation: "create" }],
        ["view not an object", { ...order, view: "checkout" }],
        ["roles not strings", { ...order, actor: { id: "u", roles: [1] } }],
        ["data nested 65 deep", { ...order, data: { deep: nested(64) } }],
        ["unknown ruleset", { ...order, ruleset: "no.such.ruleset" }],
        ["unknown version", { ...order, version: "0.0.0-not-served" }],
        ["channel neither client nor server", { ...order, channel: "browser" }],
      ];
      const items = [order, ...bad.map(([, item]) => item), order];
      const entries = await results(suite.server, { items });
      expect(entries.map((entry) => entry.status)).toEqual([200, 400, 400, 400, 400, 400, 404, 404, 400, 200]);
      for (const [index, item] of items.entries()) expect(entries[index]).toEqual(await alone(suite.server, item));
      expect((entries[5]!.problem as { title: string }).title).toBe("'data' is nested more than 64 deep");

      // A number too large for a double, and an id that is neither a string nor a number, fail their item alone.
      const text = `{"items":[{"id":"big","ruleset":"${SHOP}","entity":"Order","operation":"create","data":{"quantity":1e999}},{"id":{"x":1},"ruleset":"${SHOP}","entity":"Order","operation":"create"},${JSON.stringify({ id: "fine", ...order })}]}`;
      const mixed = await results(suite.server, raw(text));
      expect(mixed[0]).toEqual({
        id: "big",
        ...(await alone(
          suite.server,
          raw(`{"ruleset":"${SHOP}","entity":"Order","operation":"create","data":{"quantity":1e999}}`),
        )),
      });
      expect((mixed[0]!.problem as { title: string }).title).toBe("a number is too large for a double");
      expect(mixed[1]).toEqual({
        status: 400,
        problem: { type: "about:blank", title: "'id' must be a string or a number", status: 400 },
      });
      expect(mixed[2]).toEqual({ id: "fine", ...(await alone(suite.server, order)) });

      // Nested far deeper than JSON.stringify goes, in a member nothing reads: evaluated, as alone.
      const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
      const request = `{"ruleset":"${SHOP}","entity":"Order","operation":"create","data":{"quantity":3},"extra":${deep}}`;
      const [deepEntry] = await results(suite.server, raw(`{"items":[${request}]}`));
      expect(deepEntry).toEqual(await alone(suite.server, raw(request)));
      expect(deepEntry!.status).toBe(200);
    });

    test("the batch is refused as a single request would be: what is not a batch is 400, without the token 401", async () => {
      expect(await refusal(suite.server, raw("{not json"))).toBe("400 body is not valid JSON");
      expect(await refusal(suite.server, [order])).toBe("400 the body must be a JSON object");
      expect(await refusal(suite.server, { defaults: order })).toBe("400 'items' must be a list");
      expect(await refusal(suite.server, { items: order })).toBe("400 'items' must be a list");
      expect(await refusal(suite.server, { items: [] })).toBe("400 'items' must not be empty");
      expect(await refusal(suite.server, { defaults: "shop", items: [order] })).toBe(
        "400 'defaults' must be an object",
      );
      expect(await refusal(suite.server, { items: [order] }, "?explain=everything")).toBe(
        "400 'explain' must be rules or full",
      );
      expect(await refusal(suite.server, { items: [order] }, "", {})).toBe("401 a valid bearer token is required");
      const wrong = await send(suite.server, "/evaluations/batch", { items: [order] }, "", {
        Authorization: "Bearer not-the-token",
      });
      expect(wrong.status).toBe(401);
      expect(wrong.headers.get("www-authenticate")).toBe("Bearer");
      // The token is checked before the size: an oversized batch without it is 401.
      expect(
        await refusal(suite.server, raw(JSON.stringify({ items: [{ pad: "x".repeat(17 * 1024 * 1024) }] })), "", {}),
      ).toBe("401 a valid bearer token is required");
      expect((await fetch(`${suite.server.url}/evaluations/batch`, { headers: auth })).status).toBe(405);
    });

    test("a body declared as something other than JSON is 415, after the token and before explain and the size", async () => {
      const notJson = { ...auth, "Content-Type": "application/x-www-form-urlencoded" };
      expect(await refusal(suite.server, { items: [order] }, "", notJson)).toBe(
        "415 the body must be JSON: send Content-Type: application/json",
      );
      expect(await refusal(suite.server, { items: [order] }, "?explain=everything", notJson)).toBe(
        "415 the body must be JSON: send Content-Type: application/json",
      );
      expect(
        await refusal(
          suite.server,
          raw(JSON.stringify({ items: [{ pad: "x".repeat(17 * 1024 * 1024) }] })),
          "",
          notJson,
        ),
      ).toBe("415 the body must be JSON: send Content-Type: application/json");
      expect(await refusal(suite.server, { items: [order] }, "", { "Content-Type": "text/plain" })).toBe(
        "401 a valid bearer token is required",
      );
      const refused = await send(suite.server, "/evaluations/batch", { items: [order] }, "", notJson);
      expect(refused.headers.get("accept-post")).toBe("application/json");
      expect((await results(suite.server, { items: [order] })).map((entry) => entry.status)).toEqual([200]);
      expect(
        (
          await send(suite.server, "/evaluations/batch", { items: [order] }, "", {
            ...auth,
            "Content-Type": "application/json; charset=utf-8",
          })
        ).status,
      ).toBe(200);
    });

    test("limits: above 1000 items or 16 MiB is 413; a batch may be larger than the 1 MiB of a single request", async () => {
      expect(await refusal(suite.server, { items: Array.from({ length: 1001 }, () => ({})) })).toBe(
        "413 the batch has 1001 items, more than the limit of 1000",
      );
      expect((await results(suite.server, { items: Array.from({ length: 1000 }, () => ({})) })).length).toBe(1000);
      const overSixteen = raw(JSON.stringify({ items: [{ ...order, pad: "x".repeat(16 * 1024 * 1024) }] }));
      expect(await refusal(suite.server, overSixteen)).toBe(
        `413 the request body is larger than ${16 * 1024 * 1024} bytes`,
      );
      // Two items of 1.5 MiB each: too large for POST /evaluations, not for a batch.
      const large = { ...order, data: { ...order.data, note: "x".repeat(1.5 * 1024 * 1024) } };
      expect((await send(suite.server, "/evaluations", large)).status).toBe(413);
      const entries = await results(suite.server, { items: [large, large] });
      expect(entries.map((entry) => entry.status)).toEqual([200, 200]);
    });

    test("?explain=rules|full applies to every item", async () => {
      const items = [order, { ...order, data: { quantity: 150 } }, { ...order, ruleset: "no.such.ruleset" }];
      for (const query of ["?explain=rules", "?explain=full"]) {
        const entries = await results(suite.server, { items }, query);
        for (const [index, item] of items.entries())
          expect(entries[index]).toEqual(await alone(suite.server, item, query));
        expect((entries[0]!.result as { explanation?: unknown }).explanation).toBeDefined();
      }
      const plain = await results(suite.server, { items });
      expect((plain[0]!.result as { explanation?: unknown }).explanation).toBeUndefined();
    });

    test("metrics count each item as an evaluation and the batch as one request; its log line counts items, decisions and errors", async () => {
      const scrape = async () =>
        parseExposition(await (await fetch(`${suite.server.url}/metrics`, { headers: auth })).text());
      const before = await scrape();
      const denied = { data: { quantity: 150, unitPrice: 1 } };
      const items = [{}, {}, {}, denied, denied, { entity: "Ordr" }, { ruleset: "no.such.ruleset" }, { entity: 5 }];
      const requestId = `batch-${workers}-metrics`;
      const response = await fetch(`${suite.server.url}/evaluations/batch`, {
        method: "POST",
        headers: { ...auth, "Content-Type": "application/json", "X-Request-Id": requestId },
        body: JSON.stringify({ defaults: order, items }),
      });
      expect(response.status).toBe(200);
      expect(response.headers.get("x-request-id")).toBe(requestId);
      const after = await scrape();
      const moved = (name: string, labels: Record<string, string>): number =>
        after.value(name, labels) - before.value(name, labels);
      expect(moved("rule_server_evaluations_total", { ruleset: SHOP, decision: "allow" })).toBe(4);
      expect(moved("rule_server_evaluations_total", { ruleset: SHOP, decision: "deny" })).toBe(2);
      expect(moved("rule_server_evaluations_without_rules_total", { ruleset: SHOP })).toBe(1);
      expect(moved("rule_server_request_warnings_total", { ruleset: SHOP, code: "ENTITY_UNKNOWN" })).toBe(1);
      expect(moved("rule_server_requests_total", { route: "/evaluations/batch", method: "POST", status: "200" })).toBe(
        1,
      );
      expect(moved("rule_server_requests_total", { route: "/evaluations", method: "POST", status: "200" })).toBe(0);
      const line = await suite.server.waitForLog((entry) => entry.msg === "request" && entry.requestId === requestId);
      expect(line).toMatchObject({
        method: "POST",
        path: "/evaluations/batch",
        status: 200,
        items: 8,
        decisions: { allow: 4, deny: 2 },
        errors: 2,
        warnings: 1,
      });
      // Items naming two rulesets: the line names none.
      expect(line.ruleset).toBeUndefined();
      const oneRulesetId = `${requestId}-one-ruleset`;
      expect(
        (
          await fetch(`${suite.server.url}/evaluations/batch`, {
            method: "POST",
            headers: { ...auth, "Content-Type": "application/json", "X-Request-Id": oneRulesetId },
            body: JSON.stringify({ defaults: order, items: [{}, denied] }),
          })
        ).status,
      ).toBe(200);
      const oneRuleset = await suite.server.waitForLog(
        (entry) => entry.msg === "request" && entry.requestId === oneRulesetId,
      );
      expect(oneRuleset).toMatchObject({ ruleset: SHOP, decisions: { allow: 1, deny: 1 }, errors: 0 });
      expect(oneRuleset.warnings).toBeUndefined();
    });
  });
}

describe("limits and schema enforcement from the environment", () => {
  let server: ServerProcess;
  let rules: ReturnType<typeof rulesDirectory>;
  beforeAll(async () => {
    rules = rulesDirectory();
    server = await startServer(
      serverEnvironment(rules.path, {
        RULE_SERVER_BATCH_MAX_ITEMS: "3",
        RULE_SERVER_BATCH_MAX_BYTES: "2048",
        RULE_SERVER_SCHEMA_ENFORCEMENT: "reject",
      }),
    );
  });
  afterAll(async () => {
    await server.kill();
    rules.remove();
  });

  test("RULE_SERVER_BATCH_MAX_ITEMS and RULE_SERVER_BATCH_MAX_BYTES: 413 above them, by Content-Length or as the body streams", async () => {
    expect(await refusal(server, { items: [{}, {}, {}, {}] })).toBe(
      "413 the batch has 4 items, more than the limit of 3",
    );
    expect((await results(server, { items: [{}, {}, {}] })).length).toBe(3);
    const large = JSON.stringify({ items: [{ pad: "x".repeat(2048) }] });
    expect(await refusal(server, raw(large))).toBe("413 the request body is larger than 2048 bytes");
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(large));
        controller.close();
      },
    });
    expect(await refusal(server, stream)).toBe("413 the request body is larger than 2048 bytes");
    // POST /evaluations keeps its own limit of 1 MiB.
    expect(
      (await send(server, "/evaluations", { ...order, data: { ...order.data, note: "x".repeat(4096) } })).status,
    ).toBe(200);
  });

  test("under reject, an item that does not fit gets the 422 it gets alone, with its warnings, and is counted in the log line", async () => {
    const misfit = { ...order, entity: "Ordr" };
    const entries = await results(server, { items: [order, misfit] });
    expect(entries).toEqual([await alone(server, order), await alone(server, misfit)]);
    expect(entries[1]!.status).toBe(422);
    expect((entries[1]!.problem as { warnings: { code: string }[] }).warnings.map((warning) => warning.code)).toEqual([
      "ENTITY_UNKNOWN",
    ]);
    const line = await server.waitForLog(
      (entry) => entry.msg === "request" && entry.path === "/evaluations/batch" && entry.items === 2,
    );
    expect(line).toMatchObject({ status: 200, decisions: { allow: 1, deny: 0 }, errors: 1, warnings: 1 });
  });
});
