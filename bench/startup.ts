/**
 * Start-up: from exec to the `listening` line with RULES_DIR holding 100 generated rulesets of 50
 * rules each (bench/compile.ts's generator), and the server's resident memory then. Target: under
 * one second. The server is pinned as in the HTTP benchmark; median of three starts.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { entitySchema, generatedRuleset, RULES_PER_RULESET, RULESETS } from "./compile.ts";
import { startRuleServer } from "./http/server-processes.ts";

const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function residentMegabytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN) / 1024;
}

export async function benchStartup(): Promise<void> {
  const rulesDir = mkdtempSync(join(tmpdir(), "rule-server-startup-"));
  try {
    writeFileSync(join(rulesDir, "order.schema.json"), JSON.stringify(entitySchema));
    for (let n = 0; n < RULESETS; n++) writeFileSync(join(rulesDir, `generated-${n}.ruleset.json`), JSON.stringify(generatedRuleset(n), null, 2));
    const times: number[] = [];
    const memory: number[] = [];
    for (let run = 0; run < 3; run++) {
      const server = await startRuleServer(rulesDir, 0);
      try {
        times.push(server.startupMs);
        memory.push(residentMegabytes(server.pid));
      } finally {
        server.stop();
      }
    }
    console.log(`\nStart-up with ${RULESETS} rulesets of ${RULES_PER_RULESET} rules, exec to listening (target: under 1000 ms), median of 3`);
    console.log(`${median(times).toFixed(0)} ms (${times.map((time) => time.toFixed(0)).join(", ")}), resident memory then ${median(memory).toFixed(0)} MiB`);
  } finally {
    rmSync(rulesDir, { recursive: true, force: true });
  }
}

if (import.meta.main) await benchStartup();
