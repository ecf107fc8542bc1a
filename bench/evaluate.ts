/**
 * Evaluations per second and latency on one thread, for the interop bundles and a fixed mix of
 * requests. Reference point: the Go implementation of the specification evaluates the shop bundle
 * at about 75,000 evaluations per second on one core of a 2-core machine like ours.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { LoadedRuleset } from "../src/engine/bundle/loaded-ruleset.ts";
import type { JsonValue } from "../src/engine/value/json-value.ts";
import { measure, printTable, type Measurement } from "./measure.ts";

const interop = join(import.meta.dir, "..", "test", "cases", "interop");
const load = (file: string): LoadedRuleset =>
  LoadedRuleset.fromBundle(JSON.parse(readFileSync(join(interop, file), "utf8")));
const shop = load("shop/shop-order.bundle.json");
const loans = load("library/library-loans.bundle.json");

const items = (count: number): JsonValue[] =>
  Array.from({ length: count }, (_, i) => ({ title: i % 7 === 0 ? "" : `Book ${i}` }));

const mix: { name: string; ruleset: LoadedRuleset; request: JsonValue; channel?: "client" | "server" }[] = [
  {
    name: "shop: allowed, one command",
    ruleset: shop,
    request: {
      entity: "Order",
      operation: "create",
      data: { quantity: 3, unitPrice: 0.1, customer: { email: "a@b.c" } },
      actor: { id: "u1", roles: ["clerk"] },
    },
  },
  {
    name: "shop: denied, several findings",
    ruleset: shop,
    request: {
      entity: "Order",
      operation: "create",
      data: { quantity: 150, unitPrice: 19.99, express: true },
      actor: { id: "u1" },
    },
  },
  {
    name: "shop: locale fallback fr-CA -> fr",
    ruleset: shop,
    request: {
      entity: "Order",
      operation: "update",
      data: { quantity: 101, unitPrice: 2.5, customer: { email: "a@b.c" } },
      locale: "fr-CA",
    },
  },
  {
    name: "shop: client channel, blur trigger",
    ruleset: shop,
    channel: "client",
    request: { entity: "Order", operation: "create", data: { quantity: 1, unitPrice: 1.15 }, trigger: "blur" },
  },
  {
    name: "library: forEach over 50 items",
    ruleset: loans,
    request: { entity: "Loan", operation: "create", data: { id: "L-1", isbn: "9780306406157", items: items(50) } },
  },
  {
    name: "library: update with fee and commands",
    ruleset: loans,
    request: {
      entity: "Loan",
      operation: "update",
      data: { id: "L-9", daysLate: 40, isbn: "9780306406157" },
      original: { id: "L-9", returnedAt: "2026-10-01T10:00:00Z" },
    },
  },
];

export function benchEvaluate(): Measurement[] {
  const rows = mix.map((c) => measure(c.name, () => c.ruleset.evaluate(c.request, c.channel)));
  let next = 0;
  const shopOnly = mix.filter((c) => c.ruleset === shop);
  rows.push(
    measure("shop: the four shop requests in turn", () => {
      const c = shopOnly[next++ % shopOnly.length]!;
      c.ruleset.evaluate(c.request, c.channel);
    }),
  );
  printTable("Evaluations on one thread (target: 150,000/s on the shop bundle)", rows);
  return rows;
}

if (import.meta.main) benchEvaluate();
