import { describe, expect, test } from "bun:test";
import { EngineSession } from "../../../src/protocol/engine-session.ts";
import { conformanceOperators } from "../../../src/engine/conformance-operators.ts";
import { goldenJsonFiles } from "../../support/golden-files.ts";

/**
 * The golden expression corpus (test/cases/expressions): each case is sent through the engine
 * protocol's `expression` command with the conformance operators registered, and the answer must
 * be the expected value or error code. interop/ holds values computed by another conforming runtime.
 * Every case runs twice: with code generation (the server; generated-*.ts) and with closures only
 * (pages that forbid `eval`).
 */
interface GoldenCase {
  name?: string;
  expr: unknown;
  env?: unknown;
  functions?: unknown;
  expect?: unknown;
  error?: string;
}
interface GoldenFile {
  description?: string;
  env?: unknown;
  functions?: unknown;
  cases: GoldenCase[];
}

const sessions = [true, false].map((codeGeneration) => ({
  codeGeneration,
  session: new EngineSession({ operators: conformanceOperators, codeGeneration }),
}));

function run(
  session: EngineSession,
  expr: unknown,
  env: unknown,
  functions: unknown,
): { ok: boolean; result?: unknown; error?: { code: string; message: string } } {
  const line = JSON.stringify({ command: "expression", expr, env: env ?? null, functions: functions ?? null });
  return JSON.parse(session.handleLine(line)!);
}

const files = goldenJsonFiles("expressions");

test("the corpus is there", () => {
  const total = files.reduce((sum, file) => sum + (file.content as GoldenFile).cases.length, 0);
  expect(total).toBeGreaterThan(400);
});

for (const { codeGeneration, session } of sessions) {
  for (const file of files) {
    const golden = file.content as GoldenFile;
    describe(`${file.name}, ${codeGeneration ? "code generated" : "closures only"}`, () => {
      golden.cases.forEach((c, index) => {
        const name = c.name ?? `case ${index}: ${JSON.stringify(c.expr).slice(0, 80)}`;
        test(name, () => {
          const response = run(session, c.expr, c.env ?? golden.env, c.functions ?? golden.functions);
          if (c.error !== undefined) {
            expect(response.ok).toBe(false);
            expect(response.error?.code).toBe(c.error);
          } else {
            if (!response.ok)
              throw new Error(`expected ${JSON.stringify(c.expect)}, got error ${response.error?.message}`);
            expect(response.result).toEqual(c.expect);
          }
        });
      });
    });
  }
}
