import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { JsonObject } from "../../src/engine/value/json-value.ts";
import { CASES_DIR } from "./golden-files.ts";

/** One evaluation of the interop vectors (test/cases/interop/evaluations.jsonl), its bundle read. */
export interface InteropEvaluation {
  readonly name: string;
  readonly source: { readonly bundle: JsonObject };
  readonly channel: "server" | "client" | null;
  readonly request: JsonObject;
  readonly result: Record<string, unknown>;
}

export function interopEvaluations(): InteropEvaluation[] {
  const interop = join(CASES_DIR, "interop");
  return readFileSync(join(interop, "evaluations.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line, index) => {
      const c = JSON.parse(line);
      return {
        name: `interop ${index}: ${c.ruleset} ${c.channel} ${c.request.operation}`,
        source: { bundle: JSON.parse(readFileSync(join(interop, c.bundle), "utf8")) },
        channel: c.channel,
        request: c.request,
        result: c.result,
      };
    });
}
