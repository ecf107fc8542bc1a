import { describe, expect, test } from "bun:test";
import { conformanceOperators } from "../../../src/engine/conformance-operators.ts";
import type { ExplainedNode, RuleExplanation } from "../../../src/engine/explanation/explanation.ts";
import { readableExpressionText } from "../../../src/engine/expression-text/print-expression-text.ts";
import type { JsonObject } from "../../../src/engine/value/json-value.ts";
import { EngineSession } from "../../../src/protocol/engine-session.ts";
import { inconsistentNodes } from "../../support/explanation-consistency.ts";
import { answeredGoldenCases } from "../../support/golden-evaluation-requests.ts";
import { interopEvaluations } from "../../support/interop-vectors.ts";

/**
 * Every golden evaluation case and interop vector, explained in both modes through the engine
 * protocol: the result without `explanation` is byte for byte the plain result, every rule has its
 * summary, every value a full explanation shows is what the engine gives for that node alone, and
 * every node's text is its expression as the printer writes it. Explaining never changes a
 * result, also when the request's numbers are the extremes of a double.
 */
interface Case {
  readonly name: string;
  readonly source: { bundle: JsonObject } | { manifest: JsonObject };
  readonly channel: "server" | "client" | null;
  readonly request: JsonObject;
}

const goldenCases: Case[] = answeredGoldenCases();
const interopCases: Case[] = interopEvaluations();

const session = new EngineSession({ operators: conformanceOperators });
const evaluate = (c: Case, explain?: string): { ok: boolean; result: Record<string, unknown> } =>
  JSON.parse(
    session.handleLine(
      JSON.stringify({
        command: "evaluate",
        ...c.source,
        channel: c.channel,
        request: c.request,
        ...(explain ? { explain } : {}),
      }),
    )!,
  );

/** Every node of a rule's trees whose text is not readableExpressionText of its expression. */
function misprintedNodes(entry: RuleExplanation): string[] {
  const wrong: string[] = [];
  const visit = (node: ExplainedNode | undefined, at: string): void => {
    if (node === undefined) return;
    if (node.text !== readableExpressionText(node.expr)) wrong.push(`${entry.rule}${at}: ${node.text}`);
    node.args?.forEach((arg, index) => visit(arg, `${at}/args/${index}`));
  };
  visit(entry.when, "/when");
  visit(entry.assert, "/assert");
  entry.assign?.forEach((node, index) => visit(node, `/assign/${index}`));
  for (const [name, node] of Object.entries(entry.args ?? {})) visit(node, `/args/${name}`);
  entry.commands?.forEach((command, index) => {
    command.idempotencyKey.forEach((node, part) => visit(node, `/commands/${index}/idempotencyKey/${part}`));
    for (const [name, node] of Object.entries(command.payload)) visit(node, `/commands/${index}/payload/${name}`);
  });
  return wrong;
}

let nodesPrinted = 0;

function manifestOf(c: Case, result: Record<string, unknown>): JsonObject {
  if ("manifest" in c.source) return c.source.manifest;
  const manifests = c.source.bundle.manifests as Record<string, JsonObject>;
  return manifests[c.channel ?? "server"] ?? manifests[(result.channel as string) ?? "server"]!;
}

test("the corpora are there", () => {
  expect(goldenCases.length).toBeGreaterThan(100);
  expect(interopCases.length).toBeGreaterThan(10);
});

for (const [corpus, cases] of [
  ["golden evaluations", goldenCases],
  ["interop vectors", interopCases],
] as const) {
  describe(`${corpus}, explained`, () => {
    for (const c of cases) {
      test(c.name, () => {
        const plain = evaluate(c);
        expect(plain.ok).toBe(true);
        for (const mode of ["rules", "full"]) {
          const explained = evaluate(c, mode);
          expect(explained.ok).toBe(true);
          const { explanation, ...result } = explained.result;
          expect(JSON.stringify(result)).toBe(JSON.stringify(plain.result));
          // Every rule of the manifest, extension kinds included, in manifest order.
          expect((explanation as { rules: { rule: string }[] }).rules.map((entry) => entry.rule)).toEqual(
            (manifestOf(c, plain.result).rules as JsonObject[]).map((rule) => rule.id as string),
          );
          const entries = (explanation as { rules: RuleExplanation[] }).rules;
          expect(entries.filter((entry) => typeof entry.summary !== "string" || entry.summary === "")).toEqual([]);
          if (mode === "full") {
            expect(entries.flatMap(misprintedNodes)).toEqual([]);
            nodesPrinted += JSON.stringify(entries).split('"text":').length - 1;
            const problems = inconsistentNodes({
              explanation: explanation as never,
              manifest: manifestOf(c, plain.result),
              request: c.request,
              effects: plain.result.effects as never,
              operators: conformanceOperators,
            });
            expect(problems).toEqual([]);
          }
        }
      });
    }
  });
}

test("the full explanations printed many nodes", () => {
  // Runs after the cases above (bun runs a file's tests in order).
  expect(nodesPrinted).toBeGreaterThan(1000);
});

/** The numbers at the edges of a double: the largest and smallest magnitudes, and past 2^53. */
const EXTREME_NUMBERS = [
  // biome-ignore lint/correctness/noPrecisionLoss: numbers past what a double holds exactly are the point
  1.7976931348623157e308, -1.7976931348623157e308, 5e-324, 9007199254740993, 123456789.123456789,
];

/** The request with every number in `data` and `original` replaced by `extreme`. */
function withExtremeNumbers(request: JsonObject, extreme: number): JsonObject {
  const replace = (value: unknown): unknown =>
    typeof value === "number"
      ? extreme
      : Array.isArray(value)
        ? value.map(replace)
        : value !== null && typeof value === "object"
          ? Object.fromEntries(Object.entries(value).map(([key, member]) => [key, replace(member)]))
          : value;
  return {
    ...request,
    ...(request.data === undefined ? {} : { data: replace(request.data) as JsonObject }),
    ...(request.original === undefined ? {} : { original: replace(request.original) as JsonObject }),
  };
}

describe("golden evaluations with extreme numbers, explained", () => {
  const withNumbers = [...goldenCases, ...interopCases].filter(
    (c) => JSON.stringify([c.request.data, c.request.original]).match(/[0-9]/) !== null,
  );
  test("cases with numbers are there", () => expect(withNumbers.length).toBeGreaterThan(50));
  for (const c of withNumbers) {
    test(c.name, () => {
      for (const extreme of EXTREME_NUMBERS) {
        const extremeCase = { ...c, request: withExtremeNumbers(c.request, extreme) };
        const plain = evaluate(extremeCase);
        for (const mode of ["rules", "full"]) {
          const explained = evaluate(extremeCase, mode);
          expect(explained.ok).toBe(plain.ok);
          const { explanation: _explanation, ...result } = explained.result;
          expect(`${extreme}: ${JSON.stringify(result)}`).toBe(`${extreme}: ${JSON.stringify(plain.result)}`);
        }
      }
    });
  }
});
