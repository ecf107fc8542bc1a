import { DiagnosticSeverity, type Diagnostic, type DiagnosticRelatedInformation } from "vscode-languageserver/node";
import type { GoldenTestOutcome } from "../compiler/golden/run-golden-tests.ts";
import type { LoadProblem } from "../engine/bundle/load-problem.ts";
import { suggestedName } from "../engine/names/closest-name.ts";
import { isWarning, type FileReport } from "../workspace/file-report.ts";
import { ruleLines } from "../engine/explanation/explanation-text.ts";
import { uriOfPath } from "./file-uri.ts";
import { rangeAt, textLines, type TextLines } from "./text-range.ts";

/** What a diagnostic carries for the quick fixes: the suggestion of a near-miss name, the rule. */
export interface DiagnosticData {
  readonly didYouMean?: string;
  readonly rule?: string;
}

export const DIAGNOSTIC_SOURCE = "rule-server";

/**
 * The reports of `check` as diagnostics, by the file each problem is in: a problem of a parent
 * found while checking its child is the parent's. Problems, warnings and failed golden tests keep
 * check's code, message, line and column; a suggestion rides along as data, and a second place
 * check names (the `$ref` that led into a schema file, the parent's problems behind a child's
 * EXTENDS_INVALID, the first definition of a name defined twice) becomes related information.
 */
export function diagnosticsByFile(
  reports: readonly FileReport[],
  textOfFile: (file: string) => string | undefined,
): Map<string, Diagnostic[]> {
  // Each file's lines are found once: a file may have thousands of problems.
  const lines = new Map<string, TextLines | undefined>();
  const textOf = (file: string): TextLines | undefined => {
    if (!lines.has(file)) {
      const text = textOfFile(file);
      lines.set(file, text === undefined ? undefined : textLines(text));
    }
    return lines.get(file);
  };
  const byFile = new Map<string, Diagnostic[]>();
  const seen = new Set<string>();
  const add = (file: string, diagnostic: Diagnostic): void => {
    // A parent's problem is reported with each of its children: once is enough.
    const key = `${file}\u0000${diagnostic.code}\u0000${diagnostic.range.start.line}:${diagnostic.range.start.character}\u0000${diagnostic.message}`;
    if (seen.has(key)) return;
    seen.add(key);
    let list = byFile.get(file);
    if (list === undefined) byFile.set(file, (list = []));
    list.push(diagnostic);
  };
  for (const report of reports) {
    byFile.set(report.file, byFile.get(report.file) ?? []);
    for (const problem of report.problems) {
      const file = problem.file ?? report.file;
      add(
        file,
        problemDiagnostic(
          problem,
          file,
          isWarning(problem) ? DiagnosticSeverity.Warning : DiagnosticSeverity.Error,
          textOf,
          report.problems,
        ),
      );
    }
    for (const warning of report.warnings) {
      const file = warning.file ?? report.file;
      add(file, problemDiagnostic(warning, file, DiagnosticSeverity.Warning, textOf, []));
    }
    for (const test of report.tests)
      if (test.failures.length > 0) add(report.file, testDiagnostic(test, report.file, textOf));
  }
  return byFile;
}

function problemDiagnostic(
  problem: LoadProblem & { didYouMean?: string },
  file: string,
  severity: DiagnosticSeverity,
  textOf: (file: string) => TextLines | undefined,
  siblings: readonly LoadProblem[],
): Diagnostic {
  const didYouMean = problem.didYouMean ?? suggestedName(problem.message);
  const data: DiagnosticData = {
    ...(didYouMean === undefined ? {} : { didYouMean }),
    ...(problem.rule === undefined ? {} : { rule: problem.rule }),
  };
  const diagnostic: Diagnostic = {
    range: rangeAt(textOf(file), problem.line ?? 1, problem.column ?? 1),
    severity,
    code: problem.code,
    source: DIAGNOSTIC_SOURCE,
    message: problem.message,
    data,
  };
  const related = relatedPlaces(problem, file, siblings, textOf);
  if (related.length > 0) diagnostic.relatedInformation = related;
  return diagnostic;
}

function relatedPlaces(
  problem: LoadProblem,
  file: string,
  siblings: readonly LoadProblem[],
  textOf: (file: string) => TextLines | undefined,
): DiagnosticRelatedInformation[] {
  const related: DiagnosticRelatedInformation[] = [];
  const reference = problem.referencedAt;
  if (reference !== undefined) {
    related.push({
      location: {
        uri: uriOfPath(reference.file),
        range: rangeAt(textOf(reference.file), reference.line, reference.column ?? 1),
      },
      message: "the $ref that names this schema",
    });
  }
  const first = problem.firstDefinedAt;
  if (first !== undefined) {
    related.push({
      location: { uri: uriOfPath(first.file), range: rangeAt(textOf(first.file), first.line, first.column ?? 1) },
      message: "the first definition",
    });
  }
  if (problem.code === "EXTENDS_INVALID") {
    for (const parent of siblings) {
      if (parent.file === undefined || parent.file === file || parent.line === undefined) continue;
      related.push({
        location: { uri: uriOfPath(parent.file), range: rangeAt(textOf(parent.file), parent.line, parent.column ?? 1) },
        message: `${parent.code} ${parent.message}`,
      });
    }
  }
  return related;
}

/** A failed golden test at its name: what failed, expected against actual, and why. */
function testDiagnostic(
  test: GoldenTestOutcome,
  file: string,
  textOf: (file: string) => TextLines | undefined,
): Diagnostic {
  const lines = [`golden test "${test.name}" failed: ${test.failures.join("; ")}`];
  if (test.diff !== undefined && test.diff.length > 0) lines.push("expected (-) against actual (+):", ...test.diff);
  if (test.explained !== undefined && test.explained.length > 0)
    lines.push("why, for the rules whose outcome differs:", ...test.explained.flatMap((rule) => ruleLines(rule)));
  return {
    range: rangeAt(textOf(file), test.line ?? 1, test.column ?? 1),
    severity: DiagnosticSeverity.Error,
    code: "GOLDEN_TEST_FAILED",
    source: DIAGNOSTIC_SOURCE,
    message: lines.join("\n"),
  };
}
