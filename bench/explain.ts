/**
 * What an explanation costs, on the rules/ example request in process: the plain evaluation, then
 * `explain: rules` and `explain: full`, measured in alternating rounds so that drift on this shared
 * machine falls on all three alike; printed as ratios to the plain evaluation of the same round.
 * Targets: rules at most 1.2x, full at most 4x. Prints figures; asserts nothing.
 */
import { join } from "node:path";
import { LoadedRuleset } from "../src/engine/bundle/loaded-ruleset.ts";
import type { ExplainMode } from "../src/engine/explanation/explanation.ts";
import { compileSourceFile } from "../src/cli/compile-source-file.ts";
import { EXAMPLE_REQUEST } from "./http/throughput.ts";
import { measure, median, printTable, type Measurement } from "./measure.ts";

export function benchExplain(rounds = 5): void {
  const compilation = compileSourceFile(join(import.meta.dir, "..", "rules", "acme-payments-transfers.ruleset.yaml"));
  if (!compilation.ok) throw new Error("the rules/ example does not compile");
  const ruleset = LoadedRuleset.fromBundle(compilation.compiled.bundle);
  const modes: (ExplainMode | undefined)[] = [undefined, "rules", "full"];
  const ratios = new Map<string, number[]>();
  let last: Measurement[] = [];
  for (let round = 0; round < rounds; round++) {
    last = modes.map((explain) => measure(explain === undefined ? "evaluate, no explain" : `evaluate, explain ${explain}`, () => void ruleset.evaluate(EXAMPLE_REQUEST, "server", explain === undefined ? {} : { explain }), 1));
    // Throughput, not p50: what an explanation costs includes the garbage it leaves for the collector.
    for (const row of last.slice(1)) ratios.set(row.name, [...(ratios.get(row.name) ?? []), last[0]!.perSecond / row.perSecond]);
  }
  printTable("Explanations, the rules/ example in process (last round)", last);
  for (const [name, values] of ratios) console.log(`${name}: ${median(values).toFixed(2)}x the plain evaluation's time (median over ${rounds} rounds of the throughput ratio; target ${name.endsWith("rules") ? "1.2" : "4"}x)`);
  const full = JSON.stringify(ruleset.evaluate(EXAMPLE_REQUEST, "server", { explain: "full" }));
  console.log(`full explanation of the example: ${(full.length / 1024).toFixed(1)} KiB (budget 64 KiB)`);
}

if (import.meta.main) benchExplain();
