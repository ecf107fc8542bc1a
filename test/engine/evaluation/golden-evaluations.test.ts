import { describe, expect, test } from "bun:test";
import { conformanceOperators } from "../../../src/engine/conformance-operators.ts";
import { EngineSession } from "../../../src/protocol/engine-session.ts";
import { goldenJsonFiles } from "../../support/golden-files.ts";

/**
 * The golden evaluation corpus (test/cases/evaluations): each file holds an inline bundle or
 * manifest and requests with their full expected results, sent through the engine protocol's
 * `evaluate` command. `finding.detail` is runtime-specific and not compared. Every case runs with
 * code generation and with closures only.
 */
interface EvaluationCase {
  name: string;
  channel?: "server" | "client";
  request: unknown;
  result?: Record<string, unknown>;
  error?: { code: string; message?: string };
}
interface EvaluationFile {
  description: string;
  bundle?: unknown;
  manifest?: unknown;
  cases: EvaluationCase[];
}

function withoutDetail(result: Record<string, unknown>): Record<string, unknown> {
  const findings = (result.findings as Record<string, unknown>[] | undefined)?.map(
    ({ detail: _detail, ...finding }) => finding,
  );
  return findings ? { ...result, findings } : result;
}

const sessions = [true, false].map((codeGeneration) => ({
  codeGeneration,
  session: new EngineSession({ operators: conformanceOperators, codeGeneration }),
}));
const files = goldenJsonFiles("evaluations");

test("the evaluation corpus is there", () => {
  expect(files.reduce((sum, file) => sum + (file.content as EvaluationFile).cases.length, 0)).toBeGreaterThan(100);
});

for (const { codeGeneration, session } of sessions) {
  for (const file of files) {
    const golden = file.content as EvaluationFile;
    describe(`${file.name}, ${codeGeneration ? "code generated" : "closures only"}: ${golden.description}`, () => {
      for (const c of golden.cases) {
        test(c.name, () => {
          const source = golden.bundle !== undefined ? { bundle: golden.bundle } : { manifest: golden.manifest };
          const response = JSON.parse(
            session.handleLine(
              JSON.stringify({ command: "evaluate", ...source, channel: c.channel ?? null, request: c.request }),
            )!,
          );
          if (c.error) {
            expect(response.ok).toBe(false);
            expect(response.error.code).toBe(c.error.code);
            if (c.error.message !== undefined) expect(response.error.message).toBe(c.error.message);
          } else {
            if (!response.ok) throw new Error(`expected a result, got ${JSON.stringify(response.error)}`);
            expect(withoutDetail(response.result)).toEqual(withoutDetail(c.result!));
          }
        });
      }
    });
  }
}
