import { describe, expect, test } from "bun:test";
import { serverForSuite } from "../support/server-for-suite.ts";
import { TOKEN, type ServerProcess } from "../support/server-process.ts";

/** `POST /evaluations?explain=rules|full` against real server processes, with and without workers. */
const auth = { Authorization: `Bearer ${TOKEN}` };
const SECRET_RULES = `ruleCascade: "1.0.0"
kind: RuleSet
metadata: { id: shop.secret, version: 1.0.0, title: Server-only checks }
scope: [{ level: organization, id: shop }]
entities:
  Order: { schema: { $ref: "./order.schema.json#/$defs/Order" } }
rules:
  - id: secret.server-only.check
    kind: validation
    enforcement: server
    target: { entity: Order, field: /quantity }
    operations: [create]
    assert: { op: lt, args: [{ var: data.quantity }, 5] }
    severity: error
    finding: { code: SEC-001, message: tooMany }
  - id: public.quantity.present
    kind: validation
    target: { entity: Order, field: /quantity }
    operations: [create]
    assert: { op: exists, args: [{ var: data.quantity }] }
    severity: error
    finding: { code: PUB-001, message: missing }
messages:
  en: { tooMany: "Too many.", missing: "Missing." }
`;
const order = {
  ruleset: "shop.orders.order",
  entity: "Order",
  operation: "create",
  data: { quantity: 150, unitPrice: 2, customer: { email: "a@b.c" } },
};
const evaluate = (server: ServerProcess, query: string, body: unknown): Promise<Response> =>
  fetch(`${server.url}/evaluations${query}`, {
    method: "POST",
    headers: { ...auth, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });

for (const workers of ["0", "2"]) {
  describe(`with ${workers} workers`, () => {
    const suite = serverForSuite({ RULE_SERVER_WORKERS: workers }, { "shop-secret.ruleset.yaml": SECRET_RULES });

    test("rules: the plain result with every rule's status; full: the trees and the deciding leaves", async () => {
      const plain = (await (await evaluate(suite.server, "", order)).json()) as any;
      expect(plain.explanation).toBeUndefined();
      const rules = await evaluate(suite.server, "?explain=rules", order);
      expect(rules.status).toBe(200);
      const explainedRules = (await rules.json()) as any;
      const { explanation, ...result } = explainedRules;
      expect(result).toEqual(plain);
      expect(explanation.rules).toContainEqual({
        rule: "order.quantity.max",
        kind: "validation",
        status: "fired",
        summary: "its assertion failed, so it raised finding ORD-QTY-001",
      });
      expect(explanation.rules.find((entry: { rule: string }) => entry.rule === "order.created.notify")).toEqual({
        rule: "order.created.notify",
        kind: "action",
        status: "not-selected",
        because: "decision",
        summary: "actions run only when the decision is allow",
      });
      for (const entry of explanation.rules) expect(entry.summary).toEqual(expect.any(String));
      const full = (await (await evaluate(suite.server, "?explain=full", order)).json()) as any;
      const limit = full.explanation.rules.find((entry: { rule: string }) => entry.rule === "order.quantity.max");
      expect(limit).toMatchObject({
        status: "fired",
        summary: "its assertion failed, so it raised finding ORD-QTY-001",
        because: ["/assert"],
        assert: {
          expr: { op: "lte" },
          text: "data.quantity <= params.maxQuantity",
          value: false,
          args: [
            { text: "data.quantity", value: 150 },
            { text: "params.maxQuantity", value: 100 },
          ],
        },
      });
      const logged = await suite.server.waitForLog((entry) => entry.msg === "request" && entry.explain === "full");
      expect(logged).toMatchObject({ status: 200, decision: "deny" });
    });

    test("a misspelt entity says so, with the declared name it is closest to", async () => {
      const body = (await (await evaluate(suite.server, "?explain=rules", { ...order, entity: "Ordr" })).json()) as any;
      expect(body.decision).toBe("allow");
      expect(body.explanation.unmatched).toEqual({ entity: { given: "Ordr", didYouMean: "Order" } });
    });

    test("a client evaluation never names a server-only rule", async () => {
      const request = {
        ruleset: "shop.secret",
        channel: "client",
        entity: "Order",
        operation: "create",
        data: { quantity: 9 },
        resolutions: [{ rule: "secret.server-only.check", type: "acknowledge" }],
      };
      const response = await evaluate(suite.server, "?explain=full", request);
      expect(response.status).toBe(200);
      const text = await response.text();
      expect(text).not.toContain('secret.server-only.check","kind');
      const body = JSON.parse(text);
      expect(body.explanation.rules.map((entry: { rule: string }) => entry.rule)).toEqual(["public.quantity.present"]);
      // The resolution names it, as the request did; its fate reveals nothing of the rule.
      expect(body.explanation.resolutions).toEqual([
        { rule: "secret.server-only.check", type: "acknowledge", applied: false, reason: "rule-unknown" },
      ]);
      const server = (await (
        await evaluate(suite.server, "?explain=rules", { ...request, channel: "server" })
      ).json()) as any;
      expect(server.explanation.rules.map((entry: { rule: string }) => entry.rule)).toEqual([
        "secret.server-only.check",
        "public.quantity.present",
      ]);
    });

    test("another explain value is a 400 problem, and the token is still checked first", async () => {
      for (const query of ["?explain=yes", "?explain=", "?explain=FULL"]) {
        const response = await evaluate(suite.server, query, order);
        expect(response.status).toBe(400);
        expect(response.headers.get("content-type")).toBe("application/problem+json");
        expect(((await response.json()) as { title: string }).title).toBe("'explain' must be rules or full");
      }
      const anonymous = await fetch(`${suite.server.url}/evaluations?explain=yes`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(order),
      });
      expect(anonymous.status).toBe(401);
    });
  });
}

describe("the same explanation with workers as on the event loop", () => {
  const inline = serverForSuite({}, { "shop-secret.ruleset.yaml": SECRET_RULES });
  const pooled = serverForSuite({ RULE_SERVER_WORKERS: "1" }, { "shop-secret.ruleset.yaml": SECRET_RULES });
  test("byte for byte, both modes", async () => {
    for (const query of ["?explain=rules", "?explain=full"]) {
      for (const body of [
        order,
        { ...order, data: { quantity: 2, unitPrice: 1 } },
        { ruleset: "shop.secret", entity: "Order", operation: "create", data: { quantity: 9 } },
      ]) {
        const [a, b] = await Promise.all([evaluate(inline.server, query, body), evaluate(pooled.server, query, body)]);
        expect(await b.text()).toBe(await a.text());
      }
    }
  });
});
