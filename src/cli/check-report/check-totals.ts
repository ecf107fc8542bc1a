import { relative, sep } from "node:path";
import type { FileReport } from "../../workspace/file-report.ts";

/** What a run of `check` or `test` found in all its files, for its summary line and reports. */
export interface CheckTotals {
  readonly files: number;
  readonly problems: number;
  readonly warnings: number;
  readonly passed: number;
  readonly failed: number;
}

export function totalsOf(reports: readonly FileReport[]): CheckTotals {
  const tests = reports.flatMap((report) => report.tests);
  const failed = tests.filter((test) => test.failures.length > 0).length;
  const count = (list: (report: FileReport) => readonly unknown[]): number =>
    reports.reduce((sum, report) => sum + list(report).length, 0);
  return {
    files: reports.length,
    problems: count((report) => report.problems),
    warnings: count((report) => report.warnings),
    passed: tests.length - failed,
    failed,
  };
}

/** `OK: 3 file(s), 0 problem(s), 1 warning(s), 4 test(s) passed, 0 failed`: warnings do not make it FAILED. */
export function summaryLine(totals: CheckTotals): string {
  const ok = totals.problems === 0 && totals.failed === 0;
  return `${ok ? "OK" : "FAILED"}: ${totals.files} file(s), ${totals.problems} problem(s), ${totals.warnings} warning(s), ${totals.passed} test(s) passed, ${totals.failed} failed`;
}

/** A path as annotations want it: relative to the working directory `cwd` when it lies below it. */
export function displayPath(file: string, cwd: string): string {
  const inside = relative(cwd, file);
  return inside === "" || inside === ".." || inside.startsWith(`..${sep}`) || inside.startsWith(sep) ? file : inside;
}
