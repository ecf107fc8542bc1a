import { UsageError } from "../usage-error.ts";
import type { FileReport } from "../../workspace/file-report.ts";
import { githubReport } from "./github-report.ts";
import { junitReport } from "./junit-report.ts";
import { textReport } from "./text-report.ts";

/** Writes the reports of `check` and `test` in one format; `extra` members join the JSON (test's coverage). */
export type ReportWriter = (reports: readonly FileReport[], failed: boolean, extra?: Record<string, unknown>) => string;

const FORMATS: Record<string, ReportWriter> = {
  text: (reports) => textReport(reports),
  json: (reports, failed, extra) => `${JSON.stringify({ ok: !failed, files: reports, ...extra }, null, 2)}\n`,
  github: (reports) => githubReport(reports),
  junit: (reports) => junitReport(reports),
};

export const REPORT_FORMATS = Object.keys(FORMATS);

export function reportWriter(command: string, format: string): ReportWriter {
  const write = FORMATS[format];
  if (write === undefined)
    throw new UsageError(`${command}: --format must be one of ${REPORT_FORMATS.join(", ")}, not ${format}`);
  return write;
}
