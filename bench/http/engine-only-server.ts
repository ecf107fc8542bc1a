/**
 * A bare Bun.serve that answers every request with `answerEvaluation` on a rules directory, and
 * nothing else: no token, request id, metrics or log line. Between the parse-and-echo floor and
 * rule-server it shows what the engine costs inside an HTTP server, so that the rest of
 * rule-server's figure is its own path. Prints its port, then serves until killed.
 */
import { customOperatorsFrom } from "../../src/engine/expression/custom-operators.ts";
import { answerEvaluation } from "../../src/server/evaluation/evaluation-reply.ts";
import { loadSnapshot } from "../../src/server/snapshot/rules-snapshot.ts";

const snapshot = loadSnapshot(process.argv[2]!, customOperatorsFrom(undefined), 1);
const find = (id: string) => snapshot.rulesets.get(id)?.ruleset;
const headers = { "Content-Type": "application/json", "Cache-Control": "no-store" };

const server = Bun.serve({
  port: 0,
  fetch: async (request) => {
    // The engine alone: no schema check, as rule-server's own path adds one.
    const reply = answerEvaluation(await request.text(), find, { schemaEnforcement: "off" });
    return new Response(reply.body, { status: reply.status, headers });
  },
});
console.log(server.port);
