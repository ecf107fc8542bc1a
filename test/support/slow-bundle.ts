import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CASES_DIR } from "./golden-files.ts";

/**
 * The shop bundle under another id, with rules that evaluation tests need: one whose cost is
 * quadratic in the request (`all` over a list with a nested `some` over the same list), and one
 * that calls the `x-die` operator of test/support/operator-modules/test-operators.ts.
 */
export function slowBundle(id = "shop.slow"): string {
  const bundle = JSON.parse(readFileSync(join(CASES_DIR, "interop", "shop", "shop-order.bundle.json"), "utf8"));
  for (const holder of [bundle, bundle.manifests.server, bundle.manifests.client]) holder.id = id;
  const slow = {
    id: "order.items.slow",
    kind: "validation",
    target: { entity: "Order" },
    operations: ["slow"],
    assert: {
      op: "all",
      args: [
        { var: "data.items" },
        { op: "some", args: [{ var: "data.items" }, { op: "eq", args: [{ var: "item" }, -1] }] },
      ],
    },
    severity: "error",
    finding: { code: "ORD-SLW-001", message: "slow" },
    origin: `${id}@1.0.0`,
  };
  const die = {
    id: "order.die",
    kind: "validation",
    target: { entity: "Order" },
    operations: ["die"],
    assert: { op: "x-die", args: [] },
    severity: "error",
    finding: { code: "ORD-DIE-001", message: "die" },
    origin: `${id}@1.0.0`,
  };
  for (const manifest of [bundle.manifests.server, bundle.manifests.client]) manifest.rules.push(slow, die);
  return JSON.stringify(bundle);
}

/**
 * A request for the quadratic rule. The default runs for seconds (20,000 items: 4e8 comparisons),
 * far past any timeout a test sets (300 ms at most), however fast the machine; tests that need an
 * evaluation which finishes give a smaller count.
 */
export const slowRequest = (id = "shop.slow", items = 20000): Record<string, unknown> => ({
  ruleset: id,
  entity: "Order",
  operation: "slow",
  data: { items: Array.from({ length: items }, (_, i) => i) },
});
