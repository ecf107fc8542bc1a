import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigurationError, createServer } from "../../src/index.ts";
import { CASES_DIR } from "../support/golden-files.ts";
import { rulesDirectory } from "../support/rules-directory.ts";

/**
 * createServer (DECISIONS.md, Embedding): a token or allowOpen is required, custom operators are
 * registered, and rulesets that need missing operators are served with a warning and fail closed.
 */
const luhnBundle = (() => {
  const bundle = JSON.parse(readFileSync(join(CASES_DIR, "interop", "shop", "shop-order.bundle.json"), "utf8"));
  for (const holder of [bundle, bundle.manifests.server, bundle.manifests.client]) holder.id = "shop.cards";
  for (const manifest of [bundle.manifests.server, bundle.manifests.client]) {
    manifest.operators = ["x-luhn"];
    manifest.rules.push({
      id: "card.luhn",
      kind: "validation",
      target: { entity: "Order", field: "/card" },
      operations: ["create"],
      assert: { op: "x-luhn", args: [{ var: "data.card" }] },
      severity: "error",
      finding: { code: "ORD-CRD-001", message: "cardInvalid" },
      origin: "shop.cards@1.0.0",
    });
  }
  return JSON.stringify(bundle);
})();
const rules = rulesDirectory({ "cards.bundle.json": luhnBundle });
afterAll(() => rules.remove());
const order = {
  ruleset: "shop.cards",
  entity: "Order",
  operation: "create",
  data: { quantity: 1, unitPrice: 1, card: "79927398713", customer: { email: "a@b.c" } },
};

test("without a token or allowOpen, creating the server fails", () => {
  expect(() => createServer({ rulesDir: rules.path })).toThrow(ConfigurationError);
  expect(() => createServer({ rulesDir: rules.path, token: "" })).toThrow(ConfigurationError);
});

test("the embedding API's refusal speaks of its own options, not of environment variables", () => {
  expect(() => createServer({ rulesDir: rules.path })).toThrow(/token option.*allowOpen: true/);
  expect(() => createServer({ rulesDir: rules.path })).not.toThrow(/RULE_SERVER_/);
});

describe("with custom operators", () => {
  test("registered operators evaluate, and no warning is logged", async () => {
    const lines: string[] = [];
    const server = createServer({
      rulesDir: rules.path,
      port: 0,
      allowOpen: true,
      operators: { "x-luhn": (card) => typeof card === "string" && card === "79927398713" },
      log: (line) => void lines.push(line),
    });
    const { port } = await server.listen();
    try {
      const result = (await (
        await fetch(`http://127.0.0.1:${port}/evaluations`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify(order),
        })
      ).json()) as { decision: string };
      expect(result.decision).toBe("allow");
      expect(lines.some((line) => line.includes("custom operators are not registered"))).toBe(false);
    } finally {
      await server.stop();
    }
  });

  test("a missing operator is warned at start-up and after every reload, and its rules fail closed", async () => {
    const lines: string[] = [];
    const server = createServer({ rulesDir: rules.path, port: 0, token: "t", log: (line) => void lines.push(line) });
    const { port } = await server.listen();
    try {
      const warnings = (): Record<string, unknown>[] =>
        lines
          .map((line) => JSON.parse(line))
          .filter(
            (line) =>
              line.level === "warn" && line.ruleset === "shop.cards" && String(line.msg).startsWith("custom operators"),
          );
      expect(warnings()).toEqual([expect.objectContaining({ operators: ["x-luhn"] })]);
      const result = (await (
        await fetch(`http://127.0.0.1:${port}/evaluations`, {
          method: "POST",
          headers: { Authorization: "Bearer t", "Content-Type": "application/json" },
          body: JSON.stringify(order),
        })
      ).json()) as {
        decision: string;
        findings: { code: string }[];
      };
      expect(result.decision).toBe("deny");
      expect(result.findings.map((finding) => finding.code)).toContain("RULE-EVALUATION-ERROR");
      expect(await server.reload()).toMatchObject({ reloaded: true });
      expect(warnings().length).toBe(2);
    } finally {
      await server.stop();
    }
  });
});

test("a reload never throws: an unreadable rules directory is refused and the previous rules stay", async () => {
  const dir = rulesDirectory();
  const lines: string[] = [];
  const server = createServer({ rulesDir: dir.path, port: 0, token: "t", log: (line) => void lines.push(line) });
  const { port } = await server.listen();
  try {
    dir.remove();
    const outcome = await server.reload("SIGHUP");
    expect(outcome.reloaded).toBe(false);
    expect(lines.some((line) => line.includes("reload refused"))).toBe(true);
    expect((await fetch(`http://127.0.0.1:${port}/rulesets/shop.orders.order/manifest`)).status).toBe(200);
  } finally {
    await server.stop();
  }
});
