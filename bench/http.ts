/**
 * HTTP throughput of POST /evaluations on the example rulesets, driven by wrk at 64 connections,
 * next to a bare Bun.serve answering a fixed JSON body, both measured in the same run.
 * Target: at least 60% of the baseline's requests per second. Prints figures; asserts nothing.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
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
}

async function wrk(url: string, script: string): Promise<WrkFigures> {
  const run = Bun.spawn(["wrk", "-t2", "-c64", `-d${DURATION}s`, "--latency", "-s", script, url], { stdout: "pipe", stderr: "pipe" });
  const output = await new Response(run.stdout).text();
  if ((await run.exited) !== 0) throw new Error(`wrk failed: ${await new Response(run.stderr).text()}`);
  return {
    requestsPerSecond: Number(/Requests\/sec:\s+([0-9.]+)/.exec(output)?.[1] ?? 0),
    p99: /99%\s+(\S+)/.exec(output)?.[1] ?? "?",
    non2xx: Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(output)?.[1] ?? 0),
  };
}

async function startRuleServer(workers: number): Promise<{ url: string; stop: () => void }> {
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
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill("SIGKILL") };
}

export async function benchHttp(): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), "rule-server-bench-"));
  const script = join(scratch, "post.lua");
  writeFileSync(script, `wrk.method = "POST"\nwrk.body = ${JSON.stringify(JSON.stringify(request))}\nwrk.headers["Content-Type"] = "application/json"\nwrk.headers["Authorization"] = "Bearer ${TOKEN}"\n`);
  const fixedBody = JSON.stringify({ decision: "allow", findings: [], effects: [], commands: [] });
  const baseline = Bun.serve({ port: 0, fetch: () => new Response(fixedBody, { headers: { "Content-Type": "application/json" } }) });
  const rows: [string, WrkFigures][] = [["bare Bun.serve, fixed JSON body", await wrk(`http://127.0.0.1:${baseline.port}/`, script)]];
  try {
    for (const workers of [0, 1, 2]) {
      const server = await startRuleServer(workers);
      try {
        const probe = await fetch(`${server.url}/evaluations`, { method: "POST", headers: { Authorization: `Bearer ${TOKEN}` }, body: JSON.stringify(request) });
        if (probe.status !== 200) throw new Error(`the bench request is answered ${probe.status}: ${await probe.text()}`);
        rows.push([`rule-server POST /evaluations, ${workers} worker(s)`, await wrk(`${server.url}/evaluations`, script)]);
      } finally {
        server.stop();
      }
    }
    const base = rows[0]![1].requestsPerSecond;
    console.log(`\nHTTP, wrk -t2 -c64 -d${DURATION}s on the example rulesets (target: 60% of the baseline or more)`);
    console.log(`${"server".padEnd(44)} ${"req/s".padStart(12)} ${"p99".padStart(9)} ${"share".padStart(7)}`);
    for (const [name, figures] of rows) {
      const share = `${((figures.requestsPerSecond / base) * 100).toFixed(0)}%`;
      console.log(`${name.padEnd(44)} ${Math.round(figures.requestsPerSecond).toLocaleString("en-US").padStart(12)} ${figures.p99.padStart(9)} ${share.padStart(7)}${figures.non2xx > 0 ? `  (${figures.non2xx} non-2xx!)` : ""}`);
    }
  } finally {
    baseline.stop(true);
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (import.meta.main) await benchHttp();
