import { expect, test } from "bun:test";
import { NO_CUSTOM_OPERATORS } from "../../../src/engine/expression/custom-operators.ts";
import { Logger } from "../../../src/server/logging/logger.ts";
import { loadSnapshot } from "../../../src/server/snapshot/rules-snapshot.ts";
import { WorkerPool } from "../../../src/server/workers/worker-pool.ts";
import { currencyRuleset } from "../../support/currency-ruleset.ts";
import { rulesDirectory } from "../../support/rules-directory.ts";
import { slowBundle, slowRequest } from "../../support/slow-bundle.ts";

/** The pool itself, with real worker threads: orders of events a server process cannot force. */
test("a worker started during a reload takes jobs only once it has loaded the newer snapshot", async () => {
  const rules = rulesDirectory({ "slow.bundle.json": slowBundle() });
  // One worker and a 40 ms timeout, shorter than starting RE2 takes.
  const pool = new WorkerPool(1, 40, undefined, new Logger(() => undefined));
  try {
    const first = loadSnapshot(rules.path, NO_CUSTOM_OPERATORS, 1);
    await pool.start(first);
    // The slow evaluation times out: its worker is ended and a new one starts.
    await expect(pool.evaluate(first, JSON.stringify(slowRequest()))).rejects.toMatchObject({ status: 503 });
    // A reload before the new worker is ready: it is sent both snapshots, and the second needs RE2.
    rules.write("currency.ruleset.yaml", currencyRuleset("test.currency", "Order", "./order.schema.json"));
    const second = loadSnapshot(rules.path, NO_CUSTOM_OPERATORS, 2);
    await pool.useSnapshot(second);
    const reply = await pool.evaluate(
      second,
      JSON.stringify({ ruleset: "test.currency", entity: "Order", operation: "create", data: { currency: "CHF" } }),
    );
    expect(reply.status).toBe(200);
    expect(reply.summary?.findings).toEqual(["CUR-001"]);
  } finally {
    await pool.close();
    rules.remove();
  }
});
