/**
 * What coverage adds to `rule-server test` on the rules/ example, in process: loading the files,
 * running their golden tests and (with coverage) probing them and gathering the report, measured
 * in alternating rounds so that drift on this shared machine falls on both alike; printed as the
 * ratio to the plain run of the same round. Target: at most 2x. Prints figures; asserts nothing.
 */
import { join } from "node:path";
import { runGoldenTestFiles } from "../src/cli/golden-test-run.ts";
import { checkRuleFiles, ruleFilesNamed, type CompiledSource } from "../src/workspace/rule-file-checks.ts";
import { runGoldenTests } from "../src/compiler/golden/run-golden-tests.ts";
import { CoverageCollector } from "../src/coverage/coverage-collector.ts";
import { LoadedRuleset } from "../src/engine/bundle/loaded-ruleset.ts";
import { conformanceOperators } from "../src/engine/conformance-operators.ts";
import { CoverageProbe } from "../src/engine/coverage/coverage-probe.ts";
import { customOperatorsFrom, NO_CUSTOM_OPERATORS } from "../src/engine/expression/custom-operators.ts";
import { objectAt } from "../src/engine/value/json-access.ts";
import { lcovReport } from "../src/coverage/lcov-report.ts";
import { measure, median, printTable, type Measurement } from "./measure.ts";

export function benchTestCoverage(rounds = 5): void {
  const files = ruleFilesNamed([join(import.meta.dir, "..", "rules")]);
  const plain = (): void => void runGoldenTestFiles(files);
  const covered = (): void => {
    const run = runGoldenTestFiles(files, { coverage: true });
    lcovReport(run.coverage!, (file) => file);
  };
  const ratio = coverageRatio(
    ["test rules/", plain],
    ["test rules/ --coverage (and the lcov file)", covered],
    rounds,
    "rule-server test on the rules/ example in process (last round)",
  );
  console.log(
    `coverage: ${ratio.toFixed(2)}x the time of the plain test run (median over ${rounds} rounds; target 2x)`,
  );
  benchTestsAlone(files, rounds);
}

/** The tests alone, the sources compiled once: a fresh ruleset per run, plain against probed and gathered. */
function benchTestsAlone(files: readonly string[], rounds: number): void {
  const compiled: CompiledSource[] = [];
  checkRuleFiles(files, {
    operators: NO_CUSTOM_OPERATORS,
    runTests: (source) => {
      compiled.push(source);
      return [];
    },
  });
  const operators = customOperatorsFrom(conformanceOperators);
  const fresh = (source: CompiledSource): LoadedRuleset => LoadedRuleset.fromBundle(source.bundle, operators);
  const plain = (): void => {
    for (const source of compiled) runGoldenTests(fresh(source), objectAt(source.source.document).tests);
  };
  const covered = (): void => {
    const collector = new CoverageCollector();
    for (const source of compiled) {
      const loaded = fresh(source);
      const probe = new CoverageProbe(loaded, operators);
      runGoldenTests(loaded, objectAt(source.source.document).tests, {
        coverage: {
          probe,
          probed: (name, rules) => collector.recordTest(source.resolved, source.documentSources, name, rules),
        },
      });
      collector.addRuleset(source.resolved, source.documentSources, loaded, probe);
    }
    collector.report();
  };
  const ratio = coverageRatio(
    ["golden tests alone", plain],
    ["golden tests alone, with coverage", covered],
    rounds,
    "The golden tests alone, sources compiled once (last round)",
  );
  console.log(`coverage: ${ratio.toFixed(2)}x the time of the tests alone (median over ${rounds} rounds)`);
}

/** Plain and covered measured in alternating rounds; prints the last round's table, gives the median ratio of their times. */
function coverageRatio(
  plain: [string, () => void],
  covered: [string, () => void],
  rounds: number,
  title: string,
): number {
  const ratios: number[] = [];
  let last: Measurement[] = [];
  for (let round = 0; round < rounds; round++) {
    last = [measure(plain[0], plain[1], 1), measure(covered[0], covered[1], 1)];
    ratios.push(last[0]!.perSecond / last[1]!.perSecond);
  }
  printTable(title, last);
  return median(ratios);
}

if (import.meta.main) benchTestCoverage();
