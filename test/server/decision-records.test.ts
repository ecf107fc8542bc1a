import { afterAll, describe, expect, test } from "bun:test";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { goldenTestRecords } from "../support/golden-test-records.ts";
import { PROJECT_ROOT } from "../support/run-cli.ts";
import { assertConformsToOpenApi } from "../support/openapi-conformance.ts";
import { serverEnvironment, startServer, TOKEN, type ServerProcess } from "../support/server-process.ts";
import {
  allGone,
  alive,
  readinessOfEach,
  servingPids,
  supervisorPid,
  TWO_PROCESSES,
} from "../support/server-processes.ts";

/**
 * Decision records from real server processes: one per answered evaluation under concurrent
 * single and batch requests, with and without workers; masked members in no output; every record
 * of a drain written; SIGUSR1 reopening the file, and saying so; a file that cannot be written,
 * with and without RULE_SERVER_DECISION_RECORDS_REQUIRED (the log, the metric, readiness), with one
 * process and with several; records on standard output told from log lines by `msg`.
 */
const work = mkdtempSync(join(tmpdir(), "rule-server-records-"));
const rules = join(work, "rules");
cpSync(join(PROJECT_ROOT, "rules"), rules, { recursive: true });
afterAll(() => rmSync(work, { recursive: true, force: true }));

const MASK = "/data/debtor/iban,/actor/id";
const auth = { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" };
/** The requests of the example's golden tests, each debtor IBAN and actor id made a secret of its own. */
const requests = goldenTestRecords(rules).map((line, index) => {
  const request = (JSON.parse(line) as { request: Record<string, any> }).request;
  if (request.data?.debtor !== undefined) request.data.debtor.iban = `SECRETIBAN${index}`;
  if (request.actor !== undefined) request.actor.id = `secret-actor-${index}`;
  return request;
});
const secrets = (text: string): string[] =>
  [...text.matchAll(/SECRETIBAN\d+|secret-actor-\d+/g)].map((match) => match[0]);

const evaluate = (server: ServerProcess, request: object): Promise<Response> =>
  fetch(`${server.url}/evaluations`, { method: "POST", headers: auth, body: JSON.stringify(request) });
const recordsIn = (file: string): Record<string, any>[] =>
  existsSync(file)
    ? readFileSync(file, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line))
    : [];

for (const workers of ["0", "2"]) {
  describe(`with ${workers} workers`, () => {
    test("one record per answered evaluation, single and batch items, under concurrent load; masked members in no output", async () => {
      const file = join(work, `records-${workers}.jsonl`);
      const server = await startServer(
        serverEnvironment(rules, {
          RULE_SERVER_WORKERS: workers,
          RULE_SERVER_DECISION_RECORDS: file,
          RULE_SERVER_DECISION_MASK: MASK,
        }),
      );
      let answered = 0;
      try {
        const singles = Array.from({ length: 120 }, (_, index) => requests[index % requests.length]!);
        for (let start = 0; start < singles.length; start += 30) {
          const responses = await Promise.all(
            singles.slice(start, start + 30).map((request) => evaluate(server, request)),
          );
          answered += responses.filter((response) => response.status === 200).length;
        }
        const batches = await Promise.all(
          [0, 1, 2].map(() =>
            fetch(`${server.url}/evaluations/batch`, {
              method: "POST",
              headers: auth,
              body: JSON.stringify({
                items: [...requests, { ruleset: "no.such.ruleset", entity: "X", operation: "create", data: {} }],
              }),
            }),
          ),
        );
        for (const batch of batches)
          answered += ((await batch.json()) as { results: { status: number }[] }).results.filter(
            (result) => result.status === 200,
          ).length;
        expect(answered).toBe(120 + 3 * requests.length);
      } finally {
        server.signal("SIGTERM");
        await server.exited;
      }
      const written = recordsIn(file);
      expect(written).toHaveLength(answered);
      // Records hold requests: only the server's user may read them.
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(new Set(written.map((record) => record.requestId)).size).toBe(120 + 3);
      const withDebtor = written.find((record) => record.request.data?.debtor !== undefined)!;
      expect(withDebtor.request.data.debtor.iban).toBe("***");
      expect(withDebtor.masked).toContain("/data/debtor/iban");
      expect(written.every((record) => record.caller === "default")).toBe(true);
      expect(Object.keys(written[0]!).slice(0, 11)).toEqual([
        "time",
        "level",
        "msg",
        "requestId",
        "caller",
        "ruleset",
        "version",
        "checksum",
        "channel",
        "request",
        "decision",
      ]);
      expect(written.every((record) => record.level === "info" && record.msg === "decision")).toBe(true);
      expect(secrets(readFileSync(file, "utf8"))).toEqual([]);
      expect(secrets(server.output())).toEqual([]);
    });

    test("without a mask a record holds the body as received, on one line", async () => {
      const file = join(work, `records-as-received-${workers}.jsonl`);
      const server = await startServer(
        serverEnvironment(rules, { RULE_SERVER_WORKERS: workers, RULE_SERVER_DECISION_RECORDS: file }),
      );
      // Numbers and escapes as a client wrote them, and a body over several lines.
      const text = JSON.stringify(requests[0]!, null, 2).replace(
        /"data": \{/,
        `"data": {\n  "note": "caf\\u00e9", "rate": 1.50,`,
      );
      try {
        const response = await fetch(`${server.url}/evaluations`, { method: "POST", headers: auth, body: text });
        expect(response.status).toBe(200);
      } finally {
        server.signal("SIGTERM");
        await server.exited;
      }
      const lines = readFileSync(file, "utf8").split("\n").filter(Boolean);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`"request":${text.replace(/\n/g, " ")},"decision":`);
      expect(JSON.parse(lines[0]!).request).toEqual(JSON.parse(text));
    });
  });
}

test("a drain writes the record of every request answered before the process exits", async () => {
  const file = join(work, "drain.jsonl");
  const server = await startServer(
    serverEnvironment(rules, { RULE_SERVER_DECISION_RECORDS: file, DRAIN_SECONDS: "1" }),
  );
  let answered = 0;
  let stop = false;
  const client = async (): Promise<void> => {
    while (!stop) {
      try {
        const response = await evaluate(server, requests[answered % requests.length]!);
        if (response.status === 200) answered++;
        await response.arrayBuffer();
      } catch {
        return;
      }
    }
  };
  const clients = Array.from({ length: 4 }, () => client());
  await Bun.sleep(300);
  server.signal("SIGTERM");
  await server.exited;
  stop = true;
  await Promise.all(clients);
  expect(answered).toBeGreaterThan(10);
  expect(recordsIn(file)).toHaveLength(answered);
});

test("SIGUSR1 opens the file again: after logrotate moved it, records go on in a new file", async () => {
  const file = join(work, "rotated.jsonl");
  const server = await startServer(serverEnvironment(rules, { RULE_SERVER_DECISION_RECORDS: file }));
  try {
    for (let index = 0; index < 3; index++) await evaluate(server, requests[index]!);
    await Bun.sleep(50);
    renameSync(file, `${file}.1`);
    // Moved but not yet signalled: records still go to the moved file, as logrotate expects.
    await evaluate(server, requests[3]!);
    await Bun.sleep(50);
    server.signal("SIGUSR1");
    await Bun.sleep(100);
    for (let index = 4; index < 6; index++) await evaluate(server, requests[index]!);
    await Bun.sleep(50);
    expect([recordsIn(`${file}.1`).length, recordsIn(file).length]).toEqual([4, 2]);
    expect(await server.waitForLog((line) => line.msg === "decision records reopened")).toMatchObject({
      level: "info",
      path: file,
    });
  } finally {
    await server.kill();
  }
});

test("SIGUSR1 says so when there is no file to reopen: records to standard output, or off", async () => {
  for (const [setting, msg] of [
    ["stdout", "decision records go to standard output: nothing to reopen"],
    ["off", "decision records are off: nothing to reopen"],
  ] as const) {
    const server = await startServer(serverEnvironment(rules, { RULE_SERVER_DECISION_RECORDS: setting }));
    try {
      server.signal("SIGUSR1");
      expect(await server.waitForLog((line) => line.msg === msg), setting).toMatchObject({ level: "info" });
      // Handled: the process is still serving.
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    } finally {
      await server.kill();
    }
  }
});

describe("a records file that cannot be written", () => {
  const failedTotal = async (server: ServerProcess): Promise<number> =>
    Number(
      /^rule_server_decision_records_failed_total (\d+)$/m.exec(
        await (await fetch(`${server.url}/metrics`, { headers: auth })).text(),
      )?.[1],
    );
  const readyz = async (server: ServerProcess): Promise<{ status: number; body: Record<string, unknown> }> => {
    const response = await fetch(`${server.url}/readyz`);
    const body = (await response.json()) as Record<string, unknown>;
    assertConformsToOpenApi("GET", "/readyz", response.status, response.headers.get("content-type"), body);
    return { status: response.status, body };
  };
  const failureLines = (server: ServerProcess): Record<string, unknown>[] =>
    server.logs().filter((line) => String(line.msg).startsWith("decision records cannot be written"));

  test("evaluations are still answered; one warn line names the path and the system's error, every record lost is counted", async () => {
    const directory = join(work, "gone");
    mkdirSync(directory);
    const file = join(directory, "records.jsonl");
    const server = await startServer(serverEnvironment(rules, { RULE_SERVER_DECISION_RECORDS: file }));
    try {
      await evaluate(server, requests[0]!);
      // Written (at the end of the server's turn) before the directory goes.
      await Bun.sleep(100);
      rmSync(directory, { recursive: true, force: true });
      for (let index = 0; index < 3; index++) expect((await evaluate(server, requests[index]!)).status).toBe(200);
      const warned = await server.waitForLog(
        (line) => line.msg === "decision records cannot be written; evaluations are answered without them",
      );
      expect(warned).toMatchObject({ level: "warn", required: false, path: file, step: "open", code: "ENOENT" });
      expect(warned.error).toContain("no such file or directory");
      // Records go out within 10 ms of their evaluation, in batches: the last one may be lost (and
      // counted) in the batch after the one the warn line came with.
      const deadline = Date.now() + 2000;
      let lost = await failedTotal(server);
      while (lost < 3 && Date.now() < deadline) {
        await Bun.sleep(20);
        lost = await failedTotal(server);
      }
      expect(lost).toBe(3);
      // Not required: the server stays ready.
      expect((await readyz(server)).status).toBe(200);
      // SIGUSR1 while the directory is still gone: the line says the file could not be reopened, and why.
      server.signal("SIGUSR1");
      expect(
        await server.waitForLog((line) => line.msg === "decision records file could not be reopened"),
      ).toMatchObject({ level: "warn", path: file, code: "ENOENT" });
      mkdirSync(directory);
      await Bun.sleep(1100);
      expect((await evaluate(server, requests[1]!)).status).toBe(200);
      expect(await server.waitForLog((line) => line.msg === "decision records are written again")).toMatchObject({
        level: "info",
        path: file,
      });
      await Bun.sleep(50);
      expect(recordsIn(file)).toHaveLength(1);
      // One line for the whole outage, not one per record lost.
      expect(failureLines(server)).toHaveLength(1);
    } finally {
      await server.kill();
    }
  });

  test("required, and the directory missing from the start: evaluations 503, /readyz 503 not-ready, one error line, every refusal counted, until the directory exists", async () => {
    const directory = join(work, "not-yet");
    const file = join(directory, "records.jsonl");
    const server = await startServer(
      serverEnvironment(rules, { RULE_SERVER_DECISION_RECORDS: file, RULE_SERVER_DECISION_RECORDS_REQUIRED: "1" }),
    );
    try {
      const failed = await server.waitForLog((line) =>
        String(line.msg).startsWith("decision records cannot be written"),
      );
      expect(failed).toMatchObject({
        level: "error",
        msg: "decision records cannot be written; evaluations are answered 503, and /readyz too, until they can",
        required: true,
        path: file,
        step: "open",
        code: "ENOENT",
      });
      expect(failed.error).toContain(file);
      const notReady = await readyz(server);
      expect(notReady.status).toBe(503);
      expect(notReady.body).toMatchObject({ status: "not-ready", reason: "decision records cannot be written" });
      for (let index = 0; index < 3; index++) expect((await evaluate(server, requests[index]!)).status).toBe(503);
      const batch = await fetch(`${server.url}/evaluations/batch`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({ items: [requests[0]!] }),
      });
      expect(batch.status).toBe(503);
      assertConformsToOpenApi("POST", "/evaluations/batch", 503, batch.headers.get("content-type"), await batch.json());
      expect(await failedTotal(server)).toBe(4);
      mkdirSync(directory);
      // A probe tries the file again (at most once a second): the load balancer sees the replica come back.
      let ready = await readyz(server);
      for (let attempt = 0; attempt < 40 && ready.status !== 200; attempt++) {
        await Bun.sleep(100);
        ready = await readyz(server);
      }
      expect(ready.status).toBe(200);
      expect(ready.body.status).toBe("ready");
      expect(ready.body.reason).toBeUndefined();
      expect((await evaluate(server, requests[1]!)).status).toBe(200);
      await server.waitForLog((line) => line.msg === "decision records are written again");
      await Bun.sleep(50);
      expect(recordsIn(file)).toHaveLength(1);
      expect(failureLines(server)).toHaveLength(1);
    } finally {
      await server.kill();
    }
  });

  test("with RULE_SERVER_DECISION_RECORDS_REQUIRED=1 evaluations are answered 503 until records can be written again", async () => {
    const directory = join(work, "required");
    mkdirSync(directory);
    const server = await startServer(
      serverEnvironment(rules, {
        RULE_SERVER_DECISION_RECORDS: join(directory, "records.jsonl"),
        RULE_SERVER_DECISION_RECORDS_REQUIRED: "1",
      }),
    );
    try {
      expect((await evaluate(server, requests[0]!)).status).toBe(200);
      rmSync(directory, { recursive: true, force: true });
      let refused: Response | undefined;
      for (let attempt = 0; attempt < 20 && refused === undefined; attempt++) {
        const response = await evaluate(server, requests[0]!);
        if (response.status === 503) refused = response;
        await Bun.sleep(20);
      }
      expect(refused?.status).toBe(503);
      expect(((await refused!.json()) as { title: string }).title).toBe("decision records cannot be written");
      expect((await readyz(server)).body.status).toBe("not-ready");
      mkdirSync(directory);
      await Bun.sleep(1100);
      expect((await evaluate(server, requests[1]!)).status).toBe(200);
      await server.waitForLog((line) => line.msg === "decision records are written again");
      expect((await readyz(server)).status).toBe(200);
    } finally {
      await server.kill();
    }
  });

  test("with several processes, each serving process is not ready and says so, and each comes back", async () => {
    const directory = join(work, "not-yet-processes");
    const file = join(directory, "records.jsonl");
    const server = await startServer(
      serverEnvironment(rules, {
        ...TWO_PROCESSES,
        RULE_SERVER_DECISION_RECORDS: file,
        RULE_SERVER_DECISION_RECORDS_REQUIRED: "1",
      }),
    );
    const pids: number[] = [];
    try {
      await server.waitForLog(() => servingPids(server).length >= 2);
      pids.push(supervisorPid(server), ...servingPids(server));
      const serving = servingPids(server);
      await server.waitForLog(() => failureLines(server).length >= 2);
      // The supervisor writes no records: only the serving processes report, one line each.
      expect(
        failureLines(server)
          .map((line) => line.pid)
          .sort(),
      ).toEqual([...serving].sort());
      const notReady = await readinessOfEach(server.port, serving);
      for (const pid of serving)
        expect(notReady.get(pid)).toMatchObject({ status: "not-ready", reason: "decision records cannot be written" });
      mkdirSync(directory);
      await Bun.sleep(1100);
      const ready = await readinessOfEach(server.port, serving);
      for (const pid of serving) expect(ready.get(pid)?.status).toBe("ready");
    } finally {
      await server.kill();
      if (!(await allGone(pids))) for (const pid of pids.filter(alive)) process.kill(pid, "SIGKILL");
    }
  });
});

test("stdout: records are JSON lines among the log lines, told apart by `msg`; a bad mask is a fatal setting", async () => {
  const server = await startServer(serverEnvironment(rules, { RULE_SERVER_DECISION_RECORDS: "stdout" }));
  try {
    for (let index = 0; index < 3; index++) await evaluate(server, requests[index]!);
    const record = await server.waitForLog((line) => line.request !== undefined && line.decision !== undefined);
    expect(record).toMatchObject({ level: "info", msg: "decision", ruleset: requests[0]!.ruleset, channel: "server" });
    await server.waitForLog(
      (line) =>
        line.msg === "request" &&
        line.path === "/evaluations" &&
        line.requestId === server.logs().filter((entry) => entry.msg === "decision")[2]?.requestId,
    );
    // Every line has what the log contract promises; `select(.msg == "decision")` is exactly the records,
    // and `select(.level != "info")` takes none of them.
    const lines = server.logs();
    for (const line of lines)
      expect([typeof line.time, typeof line.level, typeof line.msg]).toEqual(["string", "string", "string"]);
    expect(lines.filter((line) => line.msg === "decision")).toEqual(lines.filter((line) => line.request !== undefined));
    expect(lines.filter((line) => line.msg === "decision")).toHaveLength(3);
    expect(lines.filter((line) => line.level !== "info" && line.request !== undefined)).toEqual([]);
  } finally {
    await server.kill();
  }
  const child = Bun.spawn([process.execPath, join(PROJECT_ROOT, "src", "main.ts")], {
    env: serverEnvironment(rules, { RULE_SERVER_DECISION_RECORDS: "stdout", RULE_SERVER_DECISION_MASK: "data.iban" }),
    stdout: "pipe",
  });
  expect(await new Response(child.stdout).text()).toContain(
    "RULE_SERVER_DECISION_MASK takes JSON Pointers into the request",
  );
  expect(await child.exited).toBe(1);
});
