/**
 * Start-up: from exec to the `listening` line, and the server's resident memory then, with RULES_DIR
 * holding the rules/ example (target for the release executable: 0.3 s, issue 40) and 100
 * generated rulesets of 50 rules each (bench/compile.ts's generator; target: under one second).
 * Measured for the release executable of this machine's platform (what users run, built here by
 * build.ts) and from source (`bun src/main.ts`, which also transpiles), alternating so that both
 * see the same machine. The server is pinned as in the HTTP benchmark; median of five. Prints
 * figures; asserts nothing.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { executableName, type Target } from "../build.ts";
import { entitySchema, generatedRuleset, RULES_PER_RULESET, RULESETS } from "./compile.ts";
import { startRuleServer } from "./http/server-processes.ts";
import { median } from "./measure.ts";
import { buildRelease } from "../test/support/build-release.ts";

const STARTS = 5;
const EXAMPLE_RULES = join(import.meta.dir, "..", "rules");

function residentMegabytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN) / 1024;
}

/** The release executable for this machine, built by build.ts into a directory of its own; undefined where none is built. */
function buildExecutable(): { file: string; directory: string } | undefined {
  if (process.platform !== "linux" || (process.arch !== "x64" && process.arch !== "arm64")) return undefined;
  const target = `linux-${process.arch}` as Target;
  const directory = buildRelease(target);
  return { file: join(directory, executableName(target)), directory };
}

export async function benchStartup(): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), "rule-server-startup-"));
  let executable: ReturnType<typeof buildExecutable>;
  try {
    const generated = join(scratch, "rules");
    mkdirSync(generated);
    writeFileSync(join(generated, "order.schema.json"), JSON.stringify(entitySchema));
    for (let n = 0; n < RULESETS; n++)
      writeFileSync(join(generated, `generated-${n}.ruleset.json`), JSON.stringify(generatedRuleset(n), null, 2));
    executable = buildExecutable();
    // The build wrote a hundred megabytes and more: written out now, not while the starts are timed.
    Bun.spawnSync(["sync"]);
    const ways: { name: string; command?: string[] }[] = [
      ...(executable ? [{ name: "release executable", command: [executable.file] }] : []),
      { name: "from source (bun src/main.ts)" },
    ];
    const directories = [
      { title: "the rules/ example (target for the release executable: 300 ms)", rulesDir: EXAMPLE_RULES },
      {
        title: `${RULESETS} rulesets of ${RULES_PER_RULESET} rules (target: under 1000 ms)`,
        rulesDir: generated,
      },
    ];
    for (const { title, rulesDir } of directories) {
      const figures = new Map(ways.map((way) => [way.name, { times: [] as number[], memory: [] as number[] }]));
      // Round 0 is not counted: the first start of each way reads its files from disk.
      for (let run = 0; run <= STARTS; run++) {
        for (const way of run % 2 === 0 ? ways : [...ways].reverse()) {
          const server = await startRuleServer(rulesDir, 0, way.command);
          try {
            if (run === 0) continue;
            figures.get(way.name)!.times.push(server.startupMs);
            figures.get(way.name)!.memory.push(residentMegabytes(server.pid));
          } finally {
            server.stop();
            // The next start waits until this process is gone: tearing down its memory on the same core slowed it.
            await server.exited;
          }
        }
      }
      console.log(`\nStart-up with ${title}, exec to listening, median of ${STARTS}`);
      for (const [name, { times, memory }] of figures) {
        console.log(
          `${name.padEnd(32)} ${median(times).toFixed(0).padStart(5)} ms (${times.map((time) => time.toFixed(0)).join(", ")}), resident memory then ${median(memory).toFixed(0)} MiB`,
        );
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    if (executable) rmSync(executable.directory, { recursive: true, force: true });
  }
}

if (import.meta.main) await benchStartup();
