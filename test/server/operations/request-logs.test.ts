import { describe, expect, test } from "bun:test";
import { serverForSuite } from "../../support/server-for-suite.ts";
import { TOKEN } from "../../support/server-process.ts";

/** X-Request-Id and traceparent on answers and log lines, and the decision-log members of an evaluation. */
const auth = { Authorization: `Bearer ${TOKEN}` };
const json = { ...auth, "Content-Type": "application/json" };
const SHOP = "shop.orders.order";
const order = { ruleset: SHOP, entity: "Order", operation: "create", data: { quantity: 150, unitPrice: 1 } };
const suite = serverForSuite();

const logOf = (requestId: string): Promise<Record<string, unknown>> =>
  suite.server.waitForLog((line) => line.msg === "request" && line.requestId === requestId);

describe("X-Request-Id", () => {
  test("a valid id is echoed on the answer and logged as requestId", async () => {
    const id = "abc-123_~!#$%&'*+.^`|";
    const response = await fetch(`${suite.server.url}/rulesets`, { headers: { "X-Request-Id": id } });
    expect(response.headers.get("x-request-id")).toBe(id);
    expect(await logOf(id)).toMatchObject({ method: "GET", path: "/rulesets", status: 200, requestId: id });
    const longest = "x".repeat(128);
    expect(
      (await fetch(`${suite.server.url}/rulesets`, { headers: { "X-Request-Id": longest } })).headers.get(
        "x-request-id",
      ),
    ).toBe(longest);
  });

  test("without one, or with an invalid or too long one, a new id is made, different each time", async () => {
    const made = new Set<string>();
    for (const given of [undefined, "has space", "x".repeat(129), "caf\u00e9", "tab\there"]) {
      const headers: Record<string, string> = given === undefined ? {} : { "X-Request-Id": given };
      const response = await fetch(`${suite.server.url}/rulesets`, { headers });
      const id = response.headers.get("x-request-id")!;
      expect(id).toMatch(/^[\x21-\x7e]{1,128}$/);
      if (given !== undefined) expect(id).not.toBe(given);
      made.add(id);
      expect((await logOf(id)).path).toBe("/rulesets");
    }
    expect(made.size).toBe(5);
  });

  test("every answer carries one, once: 404, 405, 401, 413, 304, health probes, preflights, evaluations", async () => {
    const { rulesets } = (await (await fetch(`${suite.server.url}/rulesets`)).json()) as {
      rulesets: { id: string; checksum: string }[];
    };
    const checksum = rulesets.find((entry) => entry.id === SHOP)!.checksum;
    const cases: [string, RequestInit, number][] = [
      ["/nope", {}, 404],
      ["/rulesets", { method: "DELETE" }, 405],
      ["/evaluations", { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" }, 401],
      ["/evaluations", { method: "POST", headers: json, body: "x".repeat(1024 * 1024 + 1) }, 413],
      [`/rulesets/${SHOP}/manifest`, { headers: { "If-None-Match": `"${checksum}-client"` } }, 304],
      ["/healthz", {}, 200],
      ["/readyz", {}, 200],
      ["/rulesets", { method: "OPTIONS" }, 204],
      // Evaluation answers are built with the id in their headers (router.ts leaves them alone).
      ["/evaluations", { method: "POST", headers: json, body: JSON.stringify(order) }, 200],
      ["/evaluations", { method: "POST", headers: json, body: "{" }, 400],
      [
        "/evaluations",
        { method: "POST", headers: json, body: JSON.stringify({ ...order, ruleset: "no.such.ruleset" }) },
        404,
      ],
    ];
    for (const [index, [path, init, status]] of cases.entries()) {
      const headers = new Headers(init.headers);
      headers.set("X-Request-Id", `case-${index}`);
      const response = await fetch(`${suite.server.url}${path}`, { ...init, headers });
      expect(response.status).toBe(status);
      // Once: a header set twice would read back as "case-N, case-N".
      expect(response.headers.get("x-request-id"), path).toBe(`case-${index}`);
    }
    for (const made of [
      await fetch(`${suite.server.url}/healthz`),
      await fetch(`${suite.server.url}/evaluations`, { method: "POST", headers: json, body: JSON.stringify(order) }),
    ]) {
      expect(made.headers.get("x-request-id")).toMatch(/^[\x21-\x7e]+-[0-9a-z]+$/);
    }
  });
});

describe("traceparent", () => {
  test("the trace id of a valid header is logged as traceId", async () => {
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    await fetch(`${suite.server.url}/rulesets`, {
      headers: { "X-Request-Id": "traced", traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
    });
    expect((await logOf("traced")).traceId).toBe(traceId);
  });

  test("an invalid header is not logged", async () => {
    const invalid = [
      "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
      "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
      "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
      "00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01",
      "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
      "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra",
      "garbage",
    ];
    for (const [index, traceparent] of invalid.entries()) {
      await fetch(`${suite.server.url}/rulesets`, { headers: { "X-Request-Id": `untraced-${index}`, traceparent } });
      const line = await logOf(`untraced-${index}`);
      expect(line.traceId, traceparent).toBeUndefined();
    }
  });
});

describe("the evaluation log line", () => {
  test("holds ruleset, version, checksum, entity, operation, decision, the finding codes and the rules that took part", async () => {
    const response = await fetch(`${suite.server.url}/evaluations`, {
      method: "POST",
      headers: { ...json, "X-Request-Id": "decision-1" },
      body: JSON.stringify(order),
    });
    const result = (await response.json()) as { version: string; checksum: string; findings: { code: string }[] };
    const line = await logOf("decision-1");
    expect(line).toMatchObject({
      ruleset: SHOP,
      version: result.version,
      checksum: result.checksum,
      entity: "Order",
      operation: "create",
      decision: "deny",
    });
    expect(line.findings).toEqual(result.findings.map((finding) => finding.code));
    expect((line.findings as string[]).length).toBe(2);
    expect(line.rules).toBeGreaterThanOrEqual(2);
    const unknownOperation = await fetch(`${suite.server.url}/evaluations`, {
      method: "POST",
      headers: { ...json, "X-Request-Id": "decision-2" },
      body: JSON.stringify({ ...order, operation: "craete" }),
    });
    expect(unknownOperation.status).toBe(200);
    expect(await logOf("decision-2")).toMatchObject({ operation: "craete", decision: "allow", findings: [], rules: 0 });
  });
});
