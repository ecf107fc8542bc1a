import { readdirSync } from "node:fs";
import { join } from "node:path";
import { compileSourceFile } from "../../src/cli/compile-source-file.ts";
import { LoadedRuleset } from "../../src/engine/bundle/loaded-ruleset.ts";
import type { JsonObject } from "../../src/engine/value/json-value.ts";
import { decisionRecordJson, recordLine } from "../../src/records/decision-record.ts";
import { parseRecordMask } from "../../src/records/record-mask.ts";

/**
 * Decision records as a server writes them, of the requests of every golden test of a rules
 * directory: a records file whose every decision is known (the tests pin them).
 */
export function goldenTestRecords(directory: string, mask = ""): string[] {
  const lines: string[] = [];
  for (const name of readdirSync(directory).filter((entry) => /\.ruleset\.(ya?ml|json)$/.test(entry)).sort()) {
    const compilation = compileSourceFile(join(directory, name));
    if (!compilation.ok) throw new Error(`${name} does not compile`);
    const ruleset = LoadedRuleset.fromBundle(compilation.compiled.bundle);
    ((compilation.source.document as JsonObject).tests as JsonObject[]).forEach((test, index) => {
      const channel = test.channel === "client" ? "client" : "server";
      const request = { ruleset: ruleset.id, ...(test.given as JsonObject), entity: test.entity!, operation: test.operation!, ...(test.channel === undefined ? {} : { channel }) } as JsonObject;
      lines.push(recordLine("2026-11-26T00:00:00.000Z", `${ruleset.id}#${index}`, decisionRecordJson(request, ruleset.evaluate(request, channel), channel, parseRecordMask(mask))));
    });
  }
  return lines;
}
