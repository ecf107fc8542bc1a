/**
 * How fast `rule-server replay` goes through records: the records of the rules/ example's golden
 * requests, repeated to 200,000 lines, replayed in process against the example's rules (what the
 * command does per line: read the JSON, evaluate, compare). Target: at least 100,000 records a
 * second on one core. Prints figures; asserts nothing.
 */
import { join } from "node:path";
import { compileSourceFile } from "../src/workspace/compile-source-file.ts";
import { ruleFilesNamed } from "../src/workspace/rule-file-checks.ts";
import { LoadedRuleset } from "../src/engine/bundle/loaded-ruleset.ts";
import { customOperatorsFrom } from "../src/engine/expression/custom-operators.ts";
import { MaskedReplay } from "../src/records/replay/masked-replay.ts";
import { replayLine } from "../src/records/replay/record-replay.ts";
import { emptySummary } from "../src/records/replay/replay-summary.ts";
import { goldenTestRecords } from "../test/support/golden-test-records.ts";
import { median } from "./measure.ts";

export function benchReplay(records = 200_000, rounds = 3): void {
  const rules = join(import.meta.dir, "..", "rules");
  const rulesets = new Map<string, LoadedRuleset>();
  for (const file of ruleFilesNamed([rules])) {
    const compilation = compileSourceFile(file);
    if (compilation.ok) {
      const ruleset = LoadedRuleset.fromBundle(compilation.compiled.bundle);
      rulesets.set(ruleset.id, ruleset);
    }
  }
  for (const mask of ["", "/data/debtor/iban"]) {
    const golden = goldenTestRecords(rules, mask).map((line) => line.trimEnd());
    const lines = Array.from({ length: records }, (_, index) => golden[index % golden.length]!);
    const rates: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const summary = emptySummary();
      const options = { rulesets, masked: new MaskedReplay(customOperatorsFrom(undefined), new Map()) };
      const start = performance.now();
      for (let index = 0; index < lines.length; index++) replayLine(lines[index]!, index + 1, options, summary);
      rates.push(records / ((performance.now() - start) / 1000));
      if (summary.unchanged !== records)
        throw new Error(`replay changed ${records - summary.unchanged} records of unchanged rules`);
    }
    const which = mask === "" ? "" : ` with ${mask} masked`;
    console.log(
      `\nreplay${which}: ${Math.round(median(rates)).toLocaleString("en-US")} records a second (median of ${rounds} rounds of ${records.toLocaleString("en-US")}; target 100,000 on one core)`,
    );
  }
}

if (import.meta.main) benchReplay();
