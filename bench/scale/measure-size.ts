/**
 * Every figure of one size: its directory generated and compiled in this process (rulesets, rules,
 * bundle bytes), then its server started (start-up, memory at ready and after SETTLE_SECONDS idle,
 * the peak so far), reloaded by SIGHUP as it is and again after one source changed, driven with
 * wrk against the example's server, stopped, and last `check` on the directory. The same server
 * answers the load after its reloads: a second start of a large size would cost as much again.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { timeCheck, type CheckTime } from "./check-time.ts";
import { directoryFigures, type DirectoryFigures } from "./directory-figures.ts";
import { bumpRulesetVersion, generateRulesDirectory } from "./generate-rules-directory.ts";
import { startLoggedServer } from "./logged-server.ts";
import { processMemory, type ProcessMemory } from "./process-memory.ts";
import type { ScaleSize } from "./scale-sizes.ts";
import {
  throughputAgainstExample,
  type ServerUnderLoad,
  type ThroughputFigures,
} from "./throughput-against-example.ts";

export const SETTLE_SECONDS = Number(process.env.SCALE_SETTLE_SECONDS ?? 10);

export interface SizeFigures {
  readonly size: ScaleSize;
  readonly directory: DirectoryFigures;
  readonly startupMs: number;
  readonly atReady: ProcessMemory;
  /** After SETTLE_SECONDS idle; its peak is the most the server held through start-up and idle. */
  readonly settled: ProcessMemory;
  readonly reloadAllMs: number;
  readonly reloadOneMs: number;
  readonly throughput: ThroughputFigures;
  readonly check: CheckTime;
}

/** Progress on standard error, so that a long size shows where it is without cluttering the table. */
const progress = (size: ScaleSize, step: string): void => console.error(`scale ${size.name}: ${step}`);

export async function measureSize(size: ScaleSize, example: ServerUnderLoad): Promise<SizeFigures> {
  const scratch = mkdtempSync(join(tmpdir(), `rule-server-scale-${size.name}-`));
  try {
    const rulesDir = join(scratch, "rules");
    mkdirSync(rulesDir);
    const generated = generateRulesDirectory(rulesDir, size);
    const directory = directoryFigures(rulesDir);
    progress(size, `${directory.rulesets} rulesets, ${directory.rules} rules; starting the server`);
    const server = await startLoggedServer(rulesDir);
    let figures: Omit<SizeFigures, "check">;
    try {
      const atReady = processMemory(server.pid);
      await Bun.sleep(SETTLE_SECONDS * 1000);
      const settled = processMemory(server.pid);
      progress(size, "reloading");
      const reloadAllMs = await server.reload();
      bumpRulesetVersion(generated.editableFile);
      const reloadOneMs = await server.reload();
      progress(size, "under load");
      const throughput = await throughputAgainstExample(example, {
        url: server.url,
        pid: server.pid,
        ruleset: generated.requestRuleset,
      });
      figures = {
        size,
        directory,
        startupMs: server.startupMs,
        atReady,
        settled,
        reloadAllMs,
        reloadOneMs,
        throughput,
      };
    } finally {
      await server.stop();
    }
    progress(size, "check");
    return { ...figures, check: await timeCheck(rulesDir) };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
