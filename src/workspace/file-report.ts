import type { GoldenTestOutcome } from "../compiler/golden/run-golden-tests.ts";
import type { CheckWarning } from "../compiler/checks/check-warnings.ts";
import type { LoadProblem } from "../engine/bundle/load-problem.ts";

/**
 * What `check` found in one file: its load problems, the warnings of its rules (which do not
 * fail it; `--strict` reports them as problems instead) and the outcomes of its golden tests.
 */
export interface FileReport {
  file: string;
  ruleset?: string;
  problems: LoadProblem[];
  warnings: CheckWarning[];
  tests: GoldenTestOutcome[];
}

/** NUMBER_NOT_PORTABLE is reported but does not refuse a file; every other code does. */
export function isWarning(problem: LoadProblem): boolean {
  return problem.code === "NUMBER_NOT_PORTABLE";
}
