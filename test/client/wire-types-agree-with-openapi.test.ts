import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { conformanceOperators } from "../../src/engine/conformance-operators.ts";
import { EngineSession } from "../../src/protocol/engine-session.ts";
import { goldenJsonFiles } from "../support/golden-files.ts";
import {
  assertConformsToOpenApi,
  conformingAnswers,
  matchPath,
  openApiDocument,
  resolveReference,
  type ConformingAnswer,
} from "../support/openapi-conformance.ts";
import { PROJECT_ROOT } from "../support/run-cli.ts";
import { temporaryDirectory } from "../support/temp-directory.ts";

/**
 * The client's types agree with the OpenAPI description: every example answer of the description's
 * tests and every golden evaluation validates against its schema (ajv) and type-checks (tsc) as
 * the type the client gives it; the client's methods return those types; its channel and explain
 * modes are the description's. A literal that breaks a type is refused, so the check is real.
 */
type JsonObject = Record<string, unknown>;
type Answer = ConformingAnswer;
interface GoldenFile {
  bundle?: JsonObject;
  manifest?: JsonObject;
  cases: { name: string; channel?: string; request?: JsonObject; result?: JsonObject; error?: unknown }[];
}

const CLIENT = join(PROJECT_ROOT, "src", "client", "index.ts");
let directory: { path: string; remove: () => void };
beforeAll(() => {
  directory = temporaryDirectory({});
});
afterAll(() => directory?.remove());

function resolved(node: unknown): JsonObject {
  let current = node as JsonObject;
  while (typeof current.$ref === "string") current = resolveReference(current.$ref) as JsonObject;
  return current;
}

/** The component schema an answer's body is described by: its response schema's `$ref`, or that of the first `allOf`. */
function describedType(answer: Answer): string {
  const template = matchPath(answer.path.replace(/[?#].*$/, ""));
  const operation =
    template === undefined
      ? undefined
      : (openApiDocument.paths as Record<string, Record<string, JsonObject>>)[template]![answer.method.toLowerCase()];
  // An unknown path or an unlisted method has the document's own answers for them.
  const fallback = template === undefined ? "x-unknown-path-response" : "x-unlisted-method-response";
  const response = resolved(
    operation === undefined ? openApiDocument[fallback] : (operation.responses as JsonObject)[String(answer.status)],
  );
  const mediaType = answer.contentType!.split(";")[0]!.trim();
  const schema = ((response.content as JsonObject)[mediaType] as JsonObject).schema as JsonObject;
  const ref = (schema.$ref ?? (schema.allOf as JsonObject[] | undefined)?.[0]?.$ref) as string;
  return ref.replace("#/components/schemas/", "");
}

function typeCheck(name: string, source: string): { status: number; output: string } {
  const file = join(directory.path, name);
  Bun.write(file, source);
  const tsc = Bun.spawnSync([
    join(PROJECT_ROOT, "node_modules", ".bin", "tsc"),
    "--ignoreConfig",
    "--noEmit",
    "--strict",
    "--target",
    "es2022",
    "--module",
    "preserve",
    "--moduleResolution",
    "bundler",
    "--allowImportingTsExtensions",
    "--lib",
    "es2023,dom",
    "--types",
    "",
    file,
  ]);
  return { status: tsc.exitCode, output: tsc.stdout.toString() + tsc.stderr.toString() };
}

test("every example answer and every golden evaluation validates against the description and type-checks as the client's type", async () => {
  const lines: string[] = [`import type * as client from ${JSON.stringify(CLIENT)};`];
  const add = (value: unknown, type: string): void =>
    void lines.push(`export const value${lines.length} = ${JSON.stringify(value)} satisfies ${type};`);
  const answers = conformingAnswers();
  const withBodies = answers.filter(
    (answer) => answer.body !== undefined && answer.contentType !== null && answer.method !== "HEAD",
  );
  for (const answer of withBodies) {
    assertConformsToOpenApi(answer.method, answer.path, answer.status, answer.contentType, answer.body);
    add(answer.body, `client.${describedType(answer)}`);
  }
  expect(new Set(withBodies.map(describedType))).toEqual(
    new Set([
      "EvaluationResult",
      "Health",
      "Readiness",
      "RulesetList",
      "Manifest",
      "Bundle",
      "Rule",
      "Problem",
      "ChecksumConflictProblem",
      "BatchEvaluationResult",
    ]),
  );
  // The golden evaluations, their requests with a ruleset id, and each explained in full as the server would.
  const session = new EngineSession({ operators: conformanceOperators });
  const requestMembers = (
    ((openApiDocument.components as JsonObject).schemas as JsonObject).EvaluationRequest as JsonObject
  ).properties as JsonObject;
  let golden = 0;
  for (const { content } of goldenJsonFiles("evaluations") as { content: GoldenFile }[]) {
    for (const evaluation of content.cases) {
      if (evaluation.result === undefined) continue;
      assertConformsToOpenApi("POST", "/evaluations", 200, "application/json", evaluation.result);
      add(evaluation.result, "Awaited<ReturnType<client.RuleServerClient['evaluate']>>");
      // Members the server ignores (a case has `colour`) are left out: the request type refuses them on purpose.
      const request = Object.entries({
        ruleset: "acme.test",
        ...evaluation.request,
        ...(evaluation.channel ? { channel: evaluation.channel } : {}),
      }).filter(([member]) => member in requestMembers);
      add(Object.fromEntries(request), "client.EvaluationRequest");
      const explained = JSON.parse(
        session.handleLine(
          JSON.stringify({
            command: "evaluate",
            ...(content.bundle ? { bundle: content.bundle } : { manifest: content.manifest }),
            channel: evaluation.channel ?? null,
            request: evaluation.request,
            explain: "full",
          }),
        )!,
      );
      assertConformsToOpenApi("POST", "/evaluations", 200, "application/json", explained.result);
      add(explained.result, "client.ExplainedEvaluationResult");
      golden++;
    }
  }
  expect(golden).toBeGreaterThan(50);
  const run = typeCheck("answers.ts", lines.join("\n"));
  expect(run.output).toBe("");
  expect(run.status).toBe(0);
});

test("the client's methods answer the description's types, and its channels and explain modes are the description's", () => {
  const parameters = (openApiDocument.components as JsonObject).parameters as Record<string, JsonObject>;
  const explainModes = (path: string): unknown =>
    ((((openApiDocument.paths as JsonObject)[path] as JsonObject).post as JsonObject).parameters as JsonObject[]).find(
      (parameter) => parameter.name === "explain",
    )!.schema;
  const union = (values: unknown): string => (values as string[]).map((value) => JSON.stringify(value)).join(" | ");
  expect(explainModes("/evaluations/batch")).toEqual(explainModes("/evaluations"));
  const source = `
import type * as client from ${JSON.stringify(CLIENT)};
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Assert<T extends true> = T;
type Answer<M extends keyof client.RuleServerClient> = client.RuleServerClient[M] extends (...args: never[]) => Promise<infer R> ? R : never;
export type Checks = [
  Assert<Equal<Awaited<ReturnType<client.RuleServerClient["evaluate"]>>, client.EvaluationResult>>,
  Assert<Equal<Answer<"evaluateBatch">, client.BatchEvaluationResult["results"]>>,
  Assert<Equal<Answer<"rulesets">, client.RulesetList["rulesets"]>>,
  Assert<Equal<Answer<"manifest">, client.Manifest>>,
  Assert<Equal<Parameters<client.RuleServerClient["evaluate"]>[0], client.EvaluationRequest>>,
  Assert<Equal<client.Channel, ${union((parameters.Channel!.schema as JsonObject).enum)}>>,
  Assert<Equal<client.Channel, NonNullable<client.EvaluationRequest["channel"]>>>,
  Assert<Equal<client.ExplainMode, ${union((explainModes("/evaluations") as JsonObject).enum)}>>,
];
`;
  const run = typeCheck("methods.ts", source);
  expect(run.output).toBe("");
  expect(run.status).toBe(0);
});

test("an answer that breaks the description does not type-check", () => {
  const result = (goldenJsonFiles("evaluations")[0]!.content as GoldenFile).cases.find(
    (evaluation) => evaluation.result,
  )!.result!;
  const wrong = [
    { ...result, decision: "maybe" },
    { ...result, blocking: undefined },
    { ...result, verdict: "allow" },
    {
      ...result,
      findings: [
        {
          rule: "r",
          code: "C",
          severity: "fatal",
          message: "m",
          fields: [],
          blocking: true,
          status: "open",
          resolution: "none",
          source: "s",
          args: {},
        },
      ],
    },
  ];
  const run = typeCheck(
    "wrong.ts",
    [
      `import type * as client from ${JSON.stringify(CLIENT)};`,
      ...wrong.map(
        (value, index) => `export const wrong${index} = ${JSON.stringify(value)} satisfies client.EvaluationResult;`,
      ),
    ].join("\n"),
  );
  expect(run.status).not.toBe(0);
  expect([...run.output.matchAll(/wrong\.ts\((\d+),\d+\): error/g)].map((match) => Number(match[1]))).toEqual([
    2, 3, 4, 5,
  ]);
});
