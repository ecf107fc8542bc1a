import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { EngineSession } from "../../../src/protocol/engine-session.ts";
import { conformanceOperators } from "../../../src/engine/conformance-operators.ts";
import { CASES_DIR } from "../../support/golden-files.ts";

/**
 * The evaluation results another conforming runtime computed for the interop bundles
 * (test/cases/interop/evaluations.jsonl) must match ours member for member, apart from
 * `finding.detail` and the members our server adds (`args` on findings; `blocking`,
 * `resolution`, `acceptableBy` on the result). Both with code generation and with closures only.
 */
const interop = join(CASES_DIR, "interop");
const cases = readFileSync(join(interop, "evaluations.jsonl"), "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line));

function withoutOurMembers(result: Record<string, unknown>): Record<string, unknown> {
  const { blocking: _blocking, resolution: _resolution, acceptableBy: _acceptableBy, ...rest } = result;
  const findings = (rest.findings as Record<string, unknown>[]).map(
    ({ args: _args, detail: _detail, ...finding }) => finding,
  );
  return { ...rest, findings };
}

for (const codeGeneration of [true, false]) {
  describe(`interop evaluations, ${codeGeneration ? "code generated" : "closures only"}`, () => {
    const session = new EngineSession({ operators: conformanceOperators, codeGeneration });
    cases.forEach((c, index) => {
      test(`${index}: ${c.ruleset} ${c.channel} ${c.request.operation}`, () => {
        const bundle = JSON.parse(readFileSync(join(interop, c.bundle), "utf8"));
        const response = JSON.parse(
          session.handleLine(JSON.stringify({ command: "evaluate", bundle, channel: c.channel, request: c.request }))!,
        );
        expect(response.ok).toBe(true);
        expect(withoutOurMembers(response.result)).toEqual(withoutOurMembers(c.result));
      });
    });
  });
}
