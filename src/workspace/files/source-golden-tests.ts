import {
  runGoldenTests,
  type GoldenTestOptions,
  type GoldenTestOutcome,
} from "../../compiler/golden/run-golden-tests.ts";
import type { LoadedRuleset } from "../../engine/bundle/loaded-ruleset.ts";
import { objectAt } from "../../engine/value/json-access.ts";
import type { SourceFile } from "./source-documents.ts";

/** The golden tests of a source file run against its compiled ruleset, each placed at its name in the file. */
export function sourceGoldenTests(
  ruleset: LoadedRuleset,
  source: SourceFile,
  options: Omit<GoldenTestOptions, "locate"> = {},
): GoldenTestOutcome[] {
  return runGoldenTests(
    ruleset,
    objectAt(source.document).tests,
    source.locate === undefined ? options : { ...options, locate: source.locate },
  );
}
