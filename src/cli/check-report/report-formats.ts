import { UsageError } from "../usage-error.ts";
import type { FileReport } from "../../workspace/file-report.ts";
import { githubReport } from "./github-report.ts";
import { junitReport } from "./junit-report.ts";
import { textReport } from "./text-report.ts";

/**
 * Writes the reports of `check` and `test` in one format, paths relative to `cwd`; `extra` members
 * join the JSON (test's coverage).
 */
export type ReportWriter = (
  reports: readonly FileReport[],
  failed: boolean,
  cwd: string,
  extra?: Record<string, unknown>,
) => string;

const FORMATS: Record<string, ReportWriter> = {
  text: (reports, _failed, cwd) => textReport(reports, cwd),
  json: (reports, failed, _cwd, extra) => `${JSON.stringify({ ok: !failed, files: reports, ...extra }, null, 2)}\n`,
  github: (reports, _failed, cwd) => githubReport(reports, cwd),
  junit: (reports, _failed, cwd) => junitReport(reports, cwd),
};

export const REPORT_FORMATS = Object.keys(FORMATS);

export function reportWriter(command: string, format: string): ReportWriter {
  const write = FORMATS[format];
  if (write === undefined)
    throw new UsageError(`${command}: --format must be one of ${REPORT_FORMATS.join(", ")}, not ${format}`);
  return write;
}
