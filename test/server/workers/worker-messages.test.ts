import { expect, test } from "bun:test";
import type { EvaluationReply } from "../../../src/server/evaluation/evaluation-reply.ts";
import {
  evaluateMessage,
  readMessage,
  replyMessage,
  replyOf,
  type FromWorker,
  type ToWorker,
} from "../../../src/server/workers/worker-messages.ts";

/**
 * A worker's reply crosses to the event loop as one string, its record (when records are on) after
 * the body; the event loop takes them apart by the record's length, without looking for a line
 * break, and gets back what the worker sent.
 */
const roundTrip = (reply: EvaluationReply): EvaluationReply => {
  const { header, body } = readMessage<FromWorker>(replyMessage(7, reply));
  if (header.kind !== "result") throw new Error(`a result was sent, ${header.kind} came`);
  expect(header.job).toBe(7);
  return replyOf(header, body);
};

const summary = {
  ruleset: "acme.payments.transfers",
  version: "1.1.0",
  checksum: "sha256:0",
  entity: "Transfer",
  operation: "create",
  decision: "allow",
  findings: [],
  rules: 4,
};

test("a reply and its record line come apart as they were sent, whatever characters they hold", () => {
  const reply: EvaluationReply = {
    status: 200,
    body: '{"decision":"allow","note":"Grüße 🧾 \\n"}',
    ruleset: "acme.payments.transfers",
    summary,
    record: '{"time":"2026-11-26T00:00:00.000Z","requestId":"r-1","request":{"text":"日本語 🧾"}}\n',
  };
  expect(roundTrip(reply)).toEqual(reply);
});

test("a reply without a record has none; a refusal keeps its status and body", () => {
  const plain: EvaluationReply = { status: 200, body: '{"decision":"deny"}', ruleset: "a.b", summary };
  expect(roundTrip(plain)).toEqual(plain);
  expect(roundTrip(plain).record).toBeUndefined();
  const refused: EvaluationReply = { status: 404, body: '{"title":"ruleset not found"}', ruleset: "x.y" };
  expect(roundTrip(refused)).toEqual(refused);
});

test("a job names who asked (request id, caller, trace) only when there are records, and carries the body as received", () => {
  const withId = readMessage<ToWorker>(evaluateMessage(3, 2, '{"a": 1.50}', undefined, { requestId: 'id-"1"' }));
  expect(withId).toEqual({
    header: { kind: "evaluate", job: 3, generation: 2, asker: { requestId: 'id-"1"' } },
    body: '{"a": 1.50}',
  });
  const asker = { requestId: "id-2", caller: "checkout", trace: { traceId: "a".repeat(32), spanId: "b".repeat(16) } };
  const withCaller = readMessage<ToWorker>(evaluateMessage(5, 2, "{}", undefined, asker));
  expect(withCaller.header).toEqual({ kind: "evaluate", job: 5, generation: 2, asker });
  const without = evaluateMessage(4, 2, "{}", "rules");
  expect(without.slice(0, without.indexOf("\n"))).toBe('{"kind":"evaluate","job":4,"generation":2,"explain":"rules"}');
});
