import { describe, expect, test } from "bun:test";
import { conformanceOperators } from "../../../src/engine/conformance-operators.ts";
import { EngineSession } from "../../../src/protocol/engine-session.ts";
import { goldenJsonFiles } from "../../support/golden-files.ts";

/**
 * Reading bundles and manifests (specification section 7, test/cases/bundles): each case is sent
 * through the engine protocol's `load` command; problems are compared by code.
 */
interface BundleCase {
  name: string;
  load: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: string; problems?: { code: string }[] };
}

const files = goldenJsonFiles("bundles");

for (const file of files) {
  const golden = file.content as { description: string; cases: BundleCase[] };
  describe(`${file.name}: ${golden.description}`, () => {
    for (const c of golden.cases) {
      test(c.name, () => {
        const session = new EngineSession({ operators: conformanceOperators });
        const response = JSON.parse(session.handleLine(JSON.stringify({ command: "load", ...c.load }))!);
        if (c.error) {
          expect(response.ok).toBe(false);
          expect(response.error.code).toBe(c.error.code);
          if (c.error.problems)
            expect(response.error.problems.map((p: { code: string }) => p.code)).toEqual(
              c.error.problems.map((p) => p.code),
            );
        } else {
          if (!response.ok) throw new Error(`expected a result, got ${JSON.stringify(response.error)}`);
          expect(response.result).toEqual(c.result!);
        }
      });
    }
  });
}
