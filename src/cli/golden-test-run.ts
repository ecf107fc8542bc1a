import { sourceGoldenTests } from "../workspace/files/source-golden-tests.ts";
import { CoverageCollector } from "../coverage/coverage-collector.ts";
import type { CoverageReport } from "../coverage/coverage-model.ts";
import { CoverageProbe } from "../engine/coverage/coverage-probe.ts";
import { NO_CUSTOM_OPERATORS, type CustomOperators } from "../engine/expression/custom-operators.ts";
import type { FileReport } from "../workspace/file-report.ts";
import { checkRuleFiles, type CompiledSource } from "../workspace/rule-file-checks.ts";

export interface GoldenTestRun {
  readonly reports: FileReport[];
  /** With `coverage` asked for. */
  readonly coverage?: CoverageReport;
}

/**
 * What `rule-server test` does short of reading arguments and writing files: loads the rule files
 * as the server would, runs the golden tests `filter` keeps (with the operators given, as
 * `check` does) and, with `coverage`, runs them under probes and gathers what they covered.
 */
export function runGoldenTestFiles(
  files: readonly string[],
  options: {
    filter?: (name: string) => boolean;
    coverage?: boolean;
    directories?: readonly string[];
    operators?: CustomOperators;
  } = {},
): GoldenTestRun {
  const operators = options.operators ?? NO_CUSTOM_OPERATORS;
  const collector = options.coverage === true ? new CoverageCollector() : undefined;
  const probed: { source: CompiledSource; probe: CoverageProbe; ran: number }[] = [];
  const reports = checkRuleFiles(files, {
    operators,
    withoutWarnings: true,
    ...(options.directories === undefined ? {} : { directories: options.directories }),
    runTests: (source) => {
      const plain = options.filter === undefined ? {} : { filter: options.filter };
      if (collector === undefined) return sourceGoldenTests(source.loaded, source.source, plain);
      const probe = new CoverageProbe(source.loaded, operators);
      const outcomes = sourceGoldenTests(source.loaded, source.source, {
        ...plain,
        coverage: {
          probe,
          probed: (name, rules) =>
            collector.recordTest(source.resolved, source.documentSources, `${source.loaded.id}: ${name}`, rules),
        },
      });
      probed.push({ source, probe, ran: outcomes.length });
      return outcomes;
    },
  });
  if (collector === undefined) return { reports };
  // With a filter, only rulesets that ran a test take part: the others would only add noughts.
  for (const { source, probe, ran } of probed)
    if (options.filter === undefined || ran > 0)
      collector.addRuleset(source.resolved, source.documentSources, source.loaded, probe);
  return { reports, coverage: collector.report() };
}
