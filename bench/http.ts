/**
 * HTTP throughput of POST /evaluations on the example rulesets, driven by wrk at 64 connections,
 * next to a bare Bun.serve answering a fixed JSON body, both measured in the same run.
 * Target: at least 60% of the baseline's requests per second. Prints figures; asserts nothing.
 *
 * Two more figures explain the result. A "floor" server reads the JSON body, parses it and
 * answers it serialized: what any server that looks at the request must do at least. And on Linux,
 * CPU time per request from /proc, for the whole process and for its event loop (main thread)
 * alone: the event loop's figure bounds what the server can do when its workers and the load
 * generator have cores of their own, which a 2-core machine shared with wrk cannot show.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..");
const TOKEN = "bench-token";
const DURATION = process.env.BENCH_SECONDS ?? "5";
const request = {
  ruleset: "acme.payments.transfers",
  entity: "Transfer",
  operation: "create",
  data: {
    id: "TRF-200010",
    amount: 30000,
    reference: "Machine parts",
    debtor: { iban: "DE89370400440532013000", country: "DE" },
    beneficiary: { iban: "AT611904300234573201", country: "AT" },
  },
  actor: { id: "u-2001", roles: ["treasury-manager"] },
  ctx: { now: "2026-03-02T09:30:00Z" },
};

interface WrkFigures {
  requestsPerSecond: number;
  p99: string;
  non2xx: number;
  /** CPU microseconds per request: the whole process, and its main thread alone (Linux only). */
  processMicros?: number;
  eventLoopMicros?: number;
}

/** CPU seconds used so far by a process and by its main thread, from /proc (undefined elsewhere). */
function cpuSeconds(pid: number): { process: number; mainThread: number } | undefined {
  const read = (path: string): number | undefined => {
    if (!existsSync(path)) return undefined;
    // The fields after the command name (which may hold spaces) start at ") ".
    const fields = readFileSync(path, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  };
  const process = read(`/proc/${pid}/stat`);
  const mainThread = read(`/proc/${pid}/task/${pid}/stat`);
  return process === undefined || mainThread === undefined ? undefined : { process, mainThread };
}

async function wrk(url: string, script: string, serverPid: number): Promise<WrkFigures> {
  const before = cpuSeconds(serverPid);
  const run = Bun.spawn(["wrk", "-t2", "-c64", `-d${DURATION}s`, "--latency", "-s", script, url], { stdout: "pipe", stderr: "pipe" });
  const output = await new Response(run.stdout).text();
  if ((await run.exited) !== 0) throw new Error(`wrk failed: ${await new Response(run.stderr).text()}`);
  const after = cpuSeconds(serverPid);
  const requests = Number(/(\d+) requests in/.exec(output)?.[1] ?? 0);
  const figures: WrkFigures = {
    requestsPerSecond: Number(/Requests\/sec:\s+([0-9.]+)/.exec(output)?.[1] ?? 0),
    p99: /99%\s+(\S+)/.exec(output)?.[1] ?? "?",
    non2xx: Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(output)?.[1] ?? 0),
  };
  if (before && after && requests > 0) {
    figures.processMicros = ((after.process - before.process) / requests) * 1e6;
    figures.eventLoopMicros = ((after.mainThread - before.mainThread) / requests) * 1e6;
  }
  return figures;
}

/** A bare Bun.serve in a process of its own, so that its CPU time is its own too. */
async function startBareServer(kind: "fixed" | "floor"): Promise<{ url: string; pid: number; stop: () => void }> {
  const child = Bun.spawn([process.execPath, join(import.meta.dir, "bare-server.ts"), kind], { stdout: "pipe", stderr: "inherit" });
  const reader = (child.stdout as ReadableStream<Uint8Array>).getReader();
  const { value } = await reader.read();
  const port = Number(new TextDecoder().decode(value).trim());
  return { url: `http://127.0.0.1:${port}`, pid: child.pid, stop: () => child.kill("SIGKILL") };
}

async function startRuleServer(workers: number): Promise<{ url: string; pid: number; stop: () => void }> {
  const child = Bun.spawn([process.execPath, join(ROOT, "src", "main.ts")], {
    cwd: ROOT,
    env: { ...process.env, RULES_DIR: join(ROOT, "rules"), PORT: "0", RULE_SERVER_TOKEN: TOKEN, DRAIN_SECONDS: "0", RULE_SERVER_WORKERS: String(workers) },
    stdout: "pipe",
    stderr: "inherit",
  });
  const reader = (child.stdout as ReadableStream<Uint8Array>).getReader();
  let text = "";
  while (!/"msg":"listening"/.test(text)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the server did not start:\n${text}`);
    text += new TextDecoder().decode(value);
  }
  const port = Number(/"port":(\d+)/.exec(text)![1]);
  // Request log lines go to a pipe nobody reads; drain it so the server never blocks on it.
  void (async () => {
    for (;;) if ((await reader.read()).done) break;
  })();
  return { url: `http://127.0.0.1:${port}`, pid: child.pid, stop: () => child.kill("SIGKILL") };
}

export async function benchHttp(): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), "rule-server-bench-"));
  const script = join(scratch, "post.lua");
  writeFileSync(script, `wrk.method = "POST"\nwrk.body = ${JSON.stringify(JSON.stringify(request))}\nwrk.headers["Content-Type"] = "application/json"\nwrk.headers["Authorization"] = "Bearer ${TOKEN}"\n`);
  const rows: [string, WrkFigures][] = [];
  try {
    for (const [name, kind] of [["bare Bun.serve, fixed JSON body (baseline)", "fixed"], ["bare Bun.serve, parses and echoes the body", "floor"]] as const) {
      const server = await startBareServer(kind);
      try {
        rows.push([name, await wrk(`${server.url}/`, script, server.pid)]);
      } finally {
        server.stop();
      }
    }
    for (const workers of [0, 1, 2]) {
      const server = await startRuleServer(workers);
      try {
        const probe = await fetch(`${server.url}/evaluations`, { method: "POST", headers: { Authorization: `Bearer ${TOKEN}` }, body: JSON.stringify(request) });
        if (probe.status !== 200) throw new Error(`the bench request is answered ${probe.status}: ${await probe.text()}`);
        rows.push([`rule-server POST /evaluations, ${workers} worker(s)`, await wrk(`${server.url}/evaluations`, script, server.pid)]);
      } finally {
        server.stop();
      }
    }
    const base = rows[0]![1].requestsPerSecond;
    const micros = (value: number | undefined): string => (value === undefined ? "-" : `${value.toFixed(1)} µs`);
    console.log(`\nHTTP, wrk -t2 -c64 -d${DURATION}s on the example rulesets (target: 60% of the baseline or more)`);
    console.log(`${"server".padEnd(46)} ${"req/s".padStart(9)} ${"p99".padStart(8)} ${"share".padStart(6)} ${"CPU/req".padStart(9)} ${"loop/req".padStart(9)} ${"loop max".padStart(9)}`);
    for (const [name, figures] of rows) {
      const share = `${((figures.requestsPerSecond / base) * 100).toFixed(0)}%`;
      const ceiling = figures.eventLoopMicros ? Math.round(1e6 / figures.eventLoopMicros).toLocaleString("en-US") : "-";
      console.log(
        `${name.padEnd(46)} ${Math.round(figures.requestsPerSecond).toLocaleString("en-US").padStart(9)} ${figures.p99.padStart(8)} ${share.padStart(6)} ${micros(figures.processMicros).padStart(9)} ${micros(figures.eventLoopMicros).padStart(9)} ${ceiling.padStart(9)}${figures.non2xx > 0 ? `  (${figures.non2xx} non-2xx!)` : ""}`,
      );
    }
    console.log("CPU/req: the server process's CPU time per request; loop/req: its main thread's alone; loop max: requests per second that event loop could serve with workers and wrk on cores of their own.");
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (import.meta.main) await benchHttp();
