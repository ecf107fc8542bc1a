import { afterAll, expect, test } from "bun:test";
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { goldenTestRecords } from "../support/golden-test-records.ts";
import { PROJECT_ROOT } from "../support/run-cli.ts";
import { serverEnvironment, startServer, TOKEN } from "../support/server-process.ts";

/**
 * With workers, a worker makes each record whole (time, request id and all) and the event loop
 * only writes it: the records of a server with a worker are those of a server without, line for
 * line but for `time`, each with the id its request was answered with, batch items too.
 */
const work = mkdtempSync(join(tmpdir(), "rule-server-worker-records-"));
const rules = join(work, "rules");
cpSync(join(PROJECT_ROOT, "rules"), rules, { recursive: true });
afterAll(() => rmSync(work, { recursive: true, force: true }));

const requests = goldenTestRecords(rules).map((line) => (JSON.parse(line) as { request: object }).request);
/** Ids a client may give (visible ASCII), quotes and backslashes among them: each must come back as sent. */
const requestId = (index: number): string => `client-"${index}"\\id`;

interface Written {
  /** The requests' ids, in the order their answers came. */
  readonly answeredIds: string[];
  readonly lines: string[];
}

/** Each request on its own with an id of its own, one at a time, then all of them as one batch. */
async function recordsWith(workers: string): Promise<Written> {
  const file = join(work, `records-${workers}.jsonl`);
  const server = await startServer(
    serverEnvironment(rules, { RULE_SERVER_WORKERS: workers, RULE_SERVER_DECISION_RECORDS: file }),
  );
  const answeredIds: string[] = [];
  try {
    const send = async (path: string, body: object, id: string): Promise<void> => {
      const response = await fetch(`${server.url}${path}`, {
        method: "POST",
        headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json", "X-Request-Id": id },
        body: JSON.stringify(body),
      });
      expect(response.status).toBe(200);
      answeredIds.push(response.headers.get("X-Request-Id")!);
    };
    for (const [index, request] of requests.entries()) await send("/evaluations", request, requestId(index));
    await send("/evaluations/batch", { items: requests }, requestId(requests.length));
  } finally {
    server.signal("SIGTERM");
    await server.exited;
  }
  return { answeredIds, lines: readFileSync(file, "utf8").split("\n").filter(Boolean) };
}

test("with a worker, every answered request's record is the line the event loop makes, but for its time", async () => {
  const started = new Date().toISOString();
  const onEventLoop = await recordsWith("0");
  const inWorker = await recordsWith("1");
  const ended = new Date().toISOString();
  expect(requests.length).toBeGreaterThan(3);
  expect(inWorker.answeredIds).toEqual(onEventLoop.answeredIds);
  // One record per single request, then one per item of the batch, all under the batch's id.
  expect(inWorker.lines).toHaveLength(2 * requests.length);
  const records = inWorker.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(records.map((record) => record.requestId)).toEqual([
    ...requests.map((_, index) => requestId(index)),
    ...requests.map(() => requestId(requests.length)),
  ]);
  for (const record of records) {
    expect((record.time as string) >= started && (record.time as string) <= ended).toBe(true);
    expect([record.level, record.msg]).toEqual(["info", "decision"]);
  }
  const withoutTime = (line: string): string => line.replace(/^\{"time":"[^"]+",/, "{");
  expect(inWorker.lines.map(withoutTime)).toEqual(onEventLoop.lines.map(withoutTime));
});
