import { compileSourceFile } from "../../src/workspace/compile-source-file.ts";
import { goldenTestRequest } from "../../src/compiler/golden/run-golden-tests.ts";
import { LoadedRuleset } from "../../src/engine/bundle/loaded-ruleset.ts";
import type { JsonObject } from "../../src/engine/value/json-value.ts";
import { decisionRecordJson, recordLine } from "../../src/records/decision-record.ts";
import { parseRecordMask } from "../../src/records/record-mask.ts";
import { ruleFilesOf } from "../../src/workspace/files/rule-files-of-directory.ts";

/**
 * Decision records as a server writes them, of the requests of every golden test of a rules
 * directory: a records file whose every decision is known (the tests pin them).
 */
export function goldenTestRecords(directory: string, mask = ""): string[] {
  const lines: string[] = [];
  for (const file of ruleFilesOf(directory).source) {
    const compilation = compileSourceFile(file);
    if (!compilation.ok) throw new Error(`${file} does not compile`);
    const ruleset = LoadedRuleset.fromBundle(compilation.compiled.bundle);
    ((compilation.source.document as JsonObject).tests as JsonObject[]).forEach((test, index) => {
      const { request: given, channel } = goldenTestRequest(test);
      const request: JsonObject = { ruleset: ruleset.id, ...given, ...(test.channel === undefined ? {} : { channel }) };
      lines.push(
        recordLine(
          "2026-11-26T00:00:00.000Z",
          `${ruleset.id}#${index}`,
          decisionRecordJson(request, ruleset.evaluate(request, channel), channel, parseRecordMask(mask)),
        ),
      );
    });
  }
  return lines;
}
