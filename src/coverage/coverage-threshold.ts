import type { CoverageReport } from "./coverage-model.ts";

/** `--threshold rules=100,outcomes=90`: the least percentage of each figure named. */
export interface CoverageThreshold {
  readonly rules?: number;
  readonly outcomes?: number;
}

export class ThresholdSyntaxError extends Error {
  readonly code = "THRESHOLD_INVALID";
}

export function parseThreshold(text: string): CoverageThreshold {
  const threshold: { rules?: number; outcomes?: number } = {};
  for (const part of text.split(",")) {
    const match = /^\s*(rules|outcomes)\s*=\s*(\d+(?:\.\d+)?)\s*%?\s*$/.exec(part);
    if (match === null || Number(match[2]) > 100)
      throw new ThresholdSyntaxError(
        `--threshold takes rules=<percent> and outcomes=<percent>, separated by commas (from 0 to 100), not ${JSON.stringify(part)}`,
      );
    threshold[match[1] as "rules" | "outcomes"] = Number(match[2]);
  }
  return threshold;
}

/** Each figure under its threshold, said: `rules 75% < 100%`. Empty when every figure is met. */
export function shortfalls(report: CoverageReport, threshold: CoverageThreshold): string[] {
  const missing: string[] = [];
  for (const figure of ["rules", "outcomes"] as const) {
    const least = threshold[figure];
    const ratio = report.totals[figure];
    if (least !== undefined && ratio.percent < least)
      missing.push(`${figure} ${ratio.percent}% (${ratio.covered}/${ratio.total}) is under ${least}%`);
  }
  return missing;
}
