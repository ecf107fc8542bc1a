/**
 * What an explanation costs, on the rules/ example request in process: the plain evaluation, then
 * `explain: rules` and `explain: full`, measured in turn in short blocks (measureInterleaved) so
 * that drift on this shared machine falls on all three alike; printed as ratios to the plain
 * evaluation of the same round.
 * Targets: rules at most 1.2x, full at most 4x. Prints figures; asserts nothing.
 */
import { join } from "node:path";
import { LoadedRuleset } from "../src/engine/bundle/loaded-ruleset.ts";
import type { ExplainMode } from "../src/engine/explanation/explanation.ts";
import { compileSourceFile } from "../src/workspace/compile-source-file.ts";
import { EXAMPLE_REQUEST } from "./http/throughput.ts";
import { measureInterleaved, median } from "./measure.ts";
import type { JsonObject } from "../src/engine/value/json-value.ts";

export function benchExplain(rounds = 5): void {
  const compilation = compileSourceFile(join(import.meta.dir, "..", "rules", "acme-payments-transfers.ruleset.yaml"));
  if (!compilation.ok) throw new Error("the rules/ example does not compile");
  const ruleset = LoadedRuleset.fromBundle(compilation.compiled.bundle);
  const modes: (ExplainMode | undefined)[] = [undefined, "rules", "full"];
  // The three in turn, in short blocks: measured one after the other, a mode's second on this
  // shared machine could run at 1.5 times another's speed (full read 2.9x to 4.6x in three runs).
  const interleaved = measureInterleaved(
    modes.map((explain) => () => void ruleset.evaluate(EXAMPLE_REQUEST, "server", optionsOf(explain))),
    rounds,
  );
  console.log("\nExplanations, the rules/ example in process, the three measured in turn in blocks of 50 ms");
  for (const [index, explain] of modes.entries()) {
    const micros = median(interleaved.map((round) => round[index]!));
    const name = explain === undefined ? "evaluate, no explain" : `evaluate, explain ${explain}`;
    if (explain === undefined) {
      console.log(`${name}: ${micros.toFixed(1)} µs`);
      continue;
    }
    // Throughput, not p50: what an explanation costs includes the garbage it leaves for the collector.
    const ratio = median(interleaved.map((round) => round[index]! / round[0]!));
    console.log(
      `${name}: ${micros.toFixed(1)} µs, ${ratio.toFixed(2)}x the plain evaluation's time (median over ${rounds} rounds; target ${explain === "rules" ? "1.2" : "4"}x)`,
    );
  }
  // Requests that come out in many ways: `rules` lists shared between requests (RuleListCache) help less.
  const varied = variedRequests();
  const cursors = modes.map(() => 0);
  const variedRounds = measureInterleaved(
    modes.map((explain, index) => () => {
      const at = cursors[index]!;
      cursors[index] = at + 1;
      const request = varied[at % varied.length]!;
      ruleset.evaluate(request, "server", optionsOf(explain));
    }),
    rounds,
  );
  const explanations = new Set(
    varied.map((request) => JSON.stringify(ruleset.evaluate(request, "server", { explain: "rules" }).explanation)),
  ).size;
  for (const [index, explain] of modes.entries()) {
    if (explain === undefined) continue;
    const ratio = median(variedRounds.map((round) => round[index]! / round[0]!));
    console.log(
      `evaluate, explain ${explain}, ${varied.length} requests with ${explanations} different explanations in turn: ${ratio.toFixed(2)}x the plain evaluation's time`,
    );
  }
  const full = JSON.stringify(ruleset.evaluate(EXAMPLE_REQUEST, "server", { explain: "full" }));
  console.log(`full explanation of the example: ${(full.length / 1024).toFixed(1)} KiB (budget 64 KiB)`);
}

/** The evaluation options of a mode, made once per mode rather than per call. */
const OPTIONS = { plain: {}, rules: { explain: "rules" }, full: { explain: "full" } } as const;
const optionsOf = (explain: ExplainMode | undefined) => OPTIONS[explain ?? "plain"];

/** The example request with the amount, the invoices, the purpose and the beneficiary's country varied. */
function variedRequests(): JsonObject[] {
  const data = EXAMPLE_REQUEST.data;
  const amounts = [300, 30000, -5, 0];
  const extras: JsonObject[] = [
    {},
    { invoices: [{ number: "INV-1", amount: 100 }] },
    { invoices: [{ number: "x", amount: -1 }] },
    { purpose: "other" },
    { beneficiary: { iban: "AT611904300234573201", country: "IR" } },
  ];
  return amounts.flatMap((amount) =>
    extras.map((extra) => ({ ...EXAMPLE_REQUEST, data: { ...data, amount, ...extra } }) as JsonObject),
  );
}

if (import.meta.main) benchExplain();
