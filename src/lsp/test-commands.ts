import { dirname } from "node:path";
import { goldenTestRequest } from "../compiler/golden/run-golden-tests.ts";
import { isExplainMode } from "../engine/explanation/explanation.ts";
import { LoadedRuleset } from "../engine/bundle/loaded-ruleset.ts";
import type { EvaluationResult } from "../engine/evaluation/evaluation-result.ts";
import { listAt, objectAt, stringAt } from "../engine/value/json-access.ts";
import type { FileReport } from "../workspace/file-report.ts";
import { compileSourceFile } from "../workspace/compile-source-file.ts";
import type { RulesWorkspace } from "./rules-workspace.ts";

/** What "Run N tests" answers: the file's tests, passed or failed (the failures also become diagnostics). */
export interface TestRunSummary {
  readonly file: string;
  readonly passed: number;
  readonly failed: number;
  readonly tests: readonly { name: string; passed: boolean; failures: readonly string[] }[];
}

export function testRunSummary(file: string, reports: readonly FileReport[]): TestRunSummary {
  const tests = reports.find((report) => report.file === file)?.tests ?? [];
  const failed = tests.filter((test) => test.failures.length > 0).length;
  return {
    file,
    passed: tests.length - failed,
    failed,
    tests: tests.map((test) => ({ name: test.name, passed: test.failures.length === 0, failures: test.failures })),
  };
}

/** What "Evaluate" answers: the test's request evaluated as `check` does, with the explanation asked for (`rules` unless `full`). */
export interface TestEvaluation {
  readonly test: string;
  readonly decision: string;
  readonly result: EvaluationResult;
}

/** Evaluates one golden test of a file; a message for the editor when it cannot. */
export function evaluateTest(
  workspace: RulesWorkspace,
  file: string,
  index: number,
  explain: unknown,
): TestEvaluation | { readonly error: string } {
  const compilation = compileSourceFile(file, workspace.directory(dirname(file)));
  if (!compilation.ok)
    return { error: `${compilation.problems.length} problem(s) keep the ruleset from compiling: see the diagnostics` };
  const test = objectAt(listAt(objectAt(compilation.source.document).tests)[index]);
  if (Object.keys(test).length === 0) return { error: `the ruleset has no test ${index}` };
  const { request, channel } = goldenTestRequest(test);
  const ruleset = LoadedRuleset.fromBundle(compilation.compiled.bundle, workspace.operators);
  try {
    const result = ruleset.evaluate(request, channel, { explain: isExplainMode(explain) ? explain : "rules" });
    return { test: stringAt(test.name), decision: result.decision, result };
  } catch (error) {
    return { error: `the test's request was refused: ${error instanceof Error ? error.message : String(error)}` };
  }
}
