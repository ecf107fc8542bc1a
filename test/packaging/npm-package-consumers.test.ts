import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fencedBlocks } from "../support/markdown-blocks.ts";
import { installedPackage, type InstalledPackage } from "../support/npm-package-project.ts";
import { PROJECT_ROOT } from "../support/run-cli.ts";
import { serverEnvironment, startServer, TOKEN, type ServerProcess } from "../support/server-process.ts";
import { TRANSFER_REQUESTS, TRANSFERS_RULESET } from "../support/transfer-requests.ts";

/**
 * The npm package installed from its tarball into an application, used as the application would:
 * plain Node.js (no Bun) and Bun import both entry points and evaluate, locally and through the
 * client, against a real server; TypeScript type-checks a program that uses every export, refuses
 * wrong calls, and accepts the package README's examples.
 */
let installed: InstalledPackage;
let server: ServerProcess;

beforeAll(async () => {
  installed = installedPackage();
  server = await startServer(serverEnvironment(join(PROJECT_ROOT, "rules")));
  writeFileSync(join(installed.project, "consumer.mjs"), CONSUMER_SCRIPT);
}, 60000);
afterAll(async () => {
  await server?.kill();
});

/** Evaluates the example requests with each entry point and prints what it got, as JSON. */
const CONSUMER_SCRIPT = `
import { loadRuleset, LoadError } from "rule-server/engine";
import * as bare from "rule-server";
import { createClient, RuleServerError } from "rule-server/client";

const { SERVER_URL, TOKEN, RULESET, REQUESTS } = process.env;
const requests = JSON.parse(REQUESTS);
const client = createClient({ baseUrl: SERVER_URL, token: TOKEN });
const clientRuleset = await client.ruleset(RULESET);
const serverRuleset = await loadRuleset(await client.manifest(RULESET, "server"));
const problem = await client.evaluate({ ruleset: "no.such.ruleset", entity: "Transfer", operation: "create" }).catch((error) => ({ isRuleServerError: error instanceof RuleServerError, code: error.code, status: error.status, problem: error.problem }));
process.stdout.write(JSON.stringify({
  runtime: process.versions.bun === undefined ? "node " + process.versions.node : "bun " + process.versions.bun,
  bareNameIsTheEngine: bare.loadRuleset === loadRuleset,
  clientLocal: requests.map((request) => clientRuleset.evaluate(request, "client")),
  clientRemote: await Promise.all(requests.map((request) => client.evaluate({ ...request, ruleset: RULESET, channel: "client" }))),
  serverLocal: requests.map((request) => serverRuleset.evaluate(request, "server")),
  serverRemote: await Promise.all(requests.map((request) => client.evaluate({ ...request, ruleset: RULESET }))),
  batch: await client.evaluateBatch(requests.map((request, id) => ({ id, ...request })), { ruleset: RULESET }),
  problem,
  badManifest: await loadRuleset("{").catch((error) => error instanceof LoadError && error.problems[0].code),
}));
`;

interface ConsumerRun {
  runtime: string;
  bareNameIsTheEngine: boolean;
  clientLocal: unknown[];
  clientRemote: unknown[];
  serverLocal: unknown[];
  serverRemote: unknown[];
  batch: { id: number; status: number; result: unknown }[];
  problem: unknown;
  badManifest: unknown;
}

function runConsumer(runtime: string): ConsumerRun {
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    SERVER_URL: server.url,
    TOKEN,
    RULESET: TRANSFERS_RULESET,
    REQUESTS: JSON.stringify(TRANSFER_REQUESTS),
  };
  const run = Bun.spawnSync([runtime, "consumer.mjs"], { cwd: installed.project, env, stdout: "pipe", stderr: "pipe" });
  if (run.exitCode !== 0) throw new Error(`${runtime} consumer.mjs failed: ${run.stderr.toString()}`);
  return JSON.parse(run.stdout.toString()) as ConsumerRun;
}

function expectTheServersAnswers(run: ConsumerRun): void {
  expect(run.bareNameIsTheEngine).toBe(true);
  expect(run.clientLocal.length).toBe(TRANSFER_REQUESTS.length);
  expect(run.clientLocal).toEqual(run.clientRemote);
  expect(run.serverLocal).toEqual(run.serverRemote);
  expect(run.batch.map((item) => item.result)).toEqual(run.serverRemote);
  // The examples make the engine work: findings, effects and the server's own commands.
  expect(JSON.stringify(run.serverRemote)).toContain("ACME-PAY-005");
  expect(JSON.stringify(run.serverRemote)).toContain('"commands":[{');
  expect(run.problem).toMatchObject({
    isRuleServerError: true,
    code: "NOT_FOUND",
    status: 404,
    problem: { type: "about:blank", status: 404 },
  });
  expect(run.badManifest).toBe("MANIFEST_INVALID");
}

describe("the installed package runs", () => {
  test("in plain Node.js: both entry points and the bare name import, and evaluate as the server does", () => {
    const run = runConsumer("node");
    expect(run.runtime).toMatch(/^node (\d+)\./);
    expect(Number(/^node (\d+)/.exec(run.runtime)![1])).toBeGreaterThanOrEqual(20);
    expectTheServersAnswers(run);
  });

  test("in Bun, with the same answers", () => {
    const run = runConsumer(process.execPath);
    expect(run.runtime).toStartWith("bun ");
    expectTheServersAnswers(run);
  });
});

/** A TypeScript program that uses every export of both entry points. */
const CONSUMER_TYPES = `
import * as bare from "rule-server";
import {
  loadRuleset, fetchRuleset, FetchRulesetError, LoadError, ChannelUnavailableError, RequestShapeError, EvaluationError, RequestMisfitError, VIEW_KEYS, localeFallbacks,
  type Ruleset, type LoadOptions, type EvaluateOptions, type CustomOperator, type FetchOptions, type LoadProblem, type RequestWarning, type RequestWarningCode,
  type SchemaEnforcement, type Channel, type EvaluationResult, type Finding, type Effect, type Command, type Decision, type Resolution, type Severity, type JsonValue, type JsonObject,
  type Explanation, type ExplainMode, type ExplainedNode, type RuleExplanation, type RuleStatus, type NotSelectedReason, type ResolutionExplanation, type CommandExplanation, type UnmatchedName,
  PlanRequestError, PlanNotTranslatableError, conditionHolds, sqlWhere, prismaWhere,
  type PlanWant, type PlanResult, type PlanCondition, type PlanOperand, type PlanScalar, type PlanValueType, type SqlWhereOptions, type PrismaWhere, type PrismaWhereOptions,
} from "rule-server/engine";
import * as wire from "rule-server/client";
import { createClient, RuleServerError, type RuleServerClient, type RuleServerErrorCode, type BatchDefaults, type BatchEvaluationItem, type CallOptions, type ClientOptions, type ExplainedEvaluationResult, type FetchFunction, type RulesetListOptions, type RulesetOptions } from "rule-server/client";

const upper: CustomOperator = (text) => String(text).toUpperCase();
const loadOptions: LoadOptions = { operators: { "x-upper": upper }, codeGeneration: false };
const evaluateOptions: EvaluateOptions = { explain: "full" satisfies ExplainMode, schemaEnforcement: "warn" satisfies SchemaEnforcement };
const fetchOptions: FetchOptions = { ...loadOptions, fetch };
const ruleset: Ruleset = await loadRuleset({ id: "x" } satisfies JsonObject, loadOptions);
const fetched: Ruleset = await fetchRuleset("https://rules.example", "acme.payments", fetchOptions);
const channel: Channel = fetched.channels[0] ?? "client";
const result: EvaluationResult = ruleset.evaluate({ entity: "Order", operation: "create", data: {} } satisfies JsonValue, channel, evaluateOptions);
const decision: Decision = result.decision;
const resolution: Resolution = result.resolution;
const finding: Finding | undefined = result.findings[0];
const severity: Severity | undefined = finding?.severity;
const wireSeverity: wire.Finding["severity"] | undefined = severity;
const effect: Effect | undefined = result.effects[0];
const command: Command | undefined = result.commands[0];
const warning: RequestWarning | undefined = result.warnings?.[0];
const warningCode: RequestWarningCode | undefined = warning?.code;
const explanation: Explanation | undefined = result.explanation;
const rule: RuleExplanation | undefined = explanation?.rules[0];
const status: RuleStatus | undefined = rule?.status;
const because: NotSelectedReason | readonly string[] | undefined = rule?.because;
const node: ExplainedNode | undefined = rule?.when;
const resolved: ResolutionExplanation | undefined = explanation?.resolutions[0];
const commandExplanation: CommandExplanation | undefined = rule?.commands?.[0];
const unmatched: UnmatchedName | undefined = explanation?.unmatched?.entity;
const places: readonly string[] = VIEW_KEYS;
const locales: readonly string[] = localeFallbacks("fr-CA");
const want: PlanWant = { rule: "transfer.amount.limit" };
const planned: PlanResult = ruleset.plan({ entity: "Transfer", operation: "approve", want } satisfies JsonValue, channel);
const operand: PlanOperand = { value: 5 satisfies PlanScalar };
const typed: PlanValueType = "number";
const condition: PlanCondition = planned.condition ?? { op: "and", args: [{ op: "lt", left: { pointer: "/amount" }, right: operand }, { op: "isType", pointer: "/amount", type: typed }] };
const holds: boolean = conditionHolds(condition, { amount: 3 });
const sqlOptions: SqlWhereOptions = { dialect: "postgresql", columns: { "/amount": "amount" } };
const where = sqlWhere(condition, sqlOptions);
const sqlText: string | undefined = where instanceof PlanNotTranslatableError ? where.code : where.where;
const prismaOptions: PrismaWhereOptions = { columns: { "/amount": "amount" } };
const prisma = prismaWhere(condition, prismaOptions);
const prismaFilter: PrismaWhere | undefined = prisma instanceof PlanNotTranslatableError ? undefined : prisma;
const engineErrors = (error: unknown): string | undefined =>
  error instanceof LoadError ? error.problems.map((problem: LoadProblem) => problem.code).join() :
  error instanceof FetchRulesetError ? String(error.status) + String(error.problem?.title) :
  error instanceof ChannelUnavailableError || error instanceof RequestShapeError || error instanceof EvaluationError || error instanceof RequestMisfitError || error instanceof PlanRequestError ? error.code : undefined;

const fetchFunction: FetchFunction = (input, init) => fetch(input, init);
const clientOptions: ClientOptions = { baseUrl: new URL("https://rules.example/base"), token: async () => "token", fetch: fetchFunction };
const client: RuleServerClient = createClient(clientOptions);
const call: CallOptions = { signal: AbortSignal.timeout(1000) };
const request: wire.EvaluationRequest = { ruleset: "acme.payments", entity: "Transfer", operation: "create", channel: "client", data: { amount: 3 }, actor: { id: "u", roles: ["customer"] }, view: null };
const plain: wire.EvaluationResult = await client.evaluate(request, call);
const explained: ExplainedEvaluationResult = await client.evaluate(request, { explain: "rules" });
const explainedRules: wire.RuleExplanation[] = explained.explanation.rules;
const items: BatchEvaluationItem[] = [{ id: 1, data: { amount: 1 } }, { id: "two", entity: "Transfer" }];
const defaults: BatchDefaults = { ruleset: "acme.payments", entity: "Transfer", operation: "create" };
const answers: wire.BatchItemResult[] = await client.evaluateBatch(items, defaults, { explain: "full" });
const decisions = answers.map((answer) => ("result" in answer ? answer.result.decision : answer.problem.title));
const listOptions: RulesetListOptions = { scope: "acme/payments", ...call };
const entries: wire.RulesetEntry[] = await client.rulesets(listOptions);
const manifest: wire.Manifest = await client.manifest(entries[0]!.id, "server", call);
const rulesetOptions: RulesetOptions = { ...loadOptions, signal: call.signal };
const local: Ruleset = await client.ruleset(manifest.id, rulesetOptions);
const planRequest: wire.PlanRequest = { ruleset: "acme.payments", entity: "Transfer", operation: "approve", want: "deny", dialect: "sqlite", columns: { "/amount": "amount" } };
const planAnswer: wire.PlanResult = await client.plan(planRequest, call);
const planSql: string | undefined = planAnswer.sql?.where;
const statusCodes: RuleServerErrorCode[] = ["BAD_REQUEST", "UNAUTHORIZED", "FORBIDDEN", "NOT_FOUND", "CONFLICT", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE", "UNPROCESSABLE", "TOO_MANY_REQUESTS", "SERVER_ERROR", "UNAVAILABLE", "SERVER_PROBLEM"];
const clientErrors = (error: unknown): [RuleServerErrorCode, number, string | undefined, wire.RequestWarning[] | undefined] | undefined =>
  error instanceof RuleServerError ? [error.code, error.status, error.requestId, error.problem?.warnings] : undefined;
const sameEngine: typeof loadRuleset = bare.loadRuleset;

export { decision, resolution, finding, wireSeverity, statusCodes, effect, command, warningCode, status, because, node, resolved, commandExplanation, unmatched, places, locales, engineErrors, plain, explainedRules, decisions, local, clientErrors, sameEngine, holds, sqlText, prismaFilter, planSql };
`;

/** The exported names of a declaration file: its `export { ... }` lists and its exported declarations. */
function exportedNames(declarations: string): string[] {
  const names = new Set<string>();
  for (const [, list] of declarations.matchAll(/^export (?:type )?\{([^}]*)\}/gm))
    for (const name of list!.split(",")) names.add(name.trim().replace(/^type\s+/, ""));
  for (const [, name] of declarations.matchAll(/^export (?:declare )?(?:interface|type|class|function|const) (\w+)/gm))
    names.add(name!);
  names.delete("");
  return [...names].sort();
}

/** Every exported type of the client that the program above does not name, checked to be a real type. */
function everyOtherClientType(clientNames: readonly string[]): string {
  const unnamed = clientNames.filter((name) => !new RegExp(`\\b${name}\\b`).test(CONSUMER_TYPES));
  return `\ntype NotAny<T> = 0 extends 1 & T ? false : true;\ntype Assert<T extends true> = T;\nexport type EveryWireType = [${unnamed.map((name) => `Assert<NotAny<wire.${name}>>`).join(", ")}];\n`;
}

function typeCheck(
  files: Record<string, string>,
  resolution: "nodenext" | "bundler",
  extra: Record<string, unknown> = {},
): { status: number; output: string } {
  const directory = join(
    installed.project,
    `typecheck-${resolution}-${Object.keys(files).join("-").replace(/\W/g, "")}`,
  );
  mkdirSync(directory, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(directory, name), text);
  const compilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: false,
    target: "es2022",
    lib: ["es2023", "dom"],
    types: [],
    module: resolution === "nodenext" ? "nodenext" : "esnext",
    moduleResolution: resolution,
    ...extra,
  };
  writeFileSync(join(directory, "tsconfig.json"), JSON.stringify({ compilerOptions, files: Object.keys(files) }));
  const tsc = Bun.spawnSync([join(PROJECT_ROOT, "node_modules", ".bin", "tsc"), "-p", directory], { cwd: directory });
  return { status: tsc.exitCode, output: tsc.stdout.toString() + tsc.stderr.toString() };
}

describe("TypeScript", () => {
  const declarations = (name: string): string =>
    readFileSync(join(installed.project, "node_modules", "rule-server", `${name}.d.ts`), "utf8");

  test("a program that uses every export of both entry points type-checks, for Node.js (nodenext) and for bundlers", () => {
    const program = CONSUMER_TYPES + everyOtherClientType(exportedNames(declarations("client")));
    for (const name of [...exportedNames(declarations("engine")), ...exportedNames(declarations("client"))])
      expect(program, name).toMatch(new RegExp(`\\b${name}\\b`));
    for (const resolution of ["nodenext", "bundler"] as const) {
      const run = typeCheck({ "consumer.ts": program }, resolution);
      expect(run.output, resolution).toBe("");
      expect(run.status).toBe(0);
    }
  });

  test("a wrong call is a type error, each one", () => {
    const wrong = [
      `import { createClient } from "rule-server/client";`,
      `import { loadRuleset } from "rule-server/engine";`,
      `const client = createClient({ baseUrl: "https://rules.example" });`,
      `await client.evaluate({ ruleset: "a", entity: "Transfer", operation: "create", channel: "browser" });`,
      `await client.evaluate({ ruleset: "a", entity: "Transfer", operation: "create", dta: {} });`,
      `await client.evaluate({ entity: "Transfer", operation: "create" });`,
      `await client.evaluate({ ruleset: "a", entity: "Transfer", operation: "create" }, { explain: "all" });`,
      `await client.manifest("a", "public");`,
      `const decision: number = (await client.evaluate({ ruleset: "a", entity: "T", operation: "c" })).decision;`,
      `createClient({ token: "t" });`,
      `(await loadRuleset({})).evaluate({}, "public");`,
      `const findings: number = (await loadRuleset({})).evaluate({}).findings;`,
      `export {};`,
    ];
    const run = typeCheck({ "wrong.ts": wrong.join("\n") }, "bundler");
    expect(run.status).not.toBe(0);
    const lines = new Set([...run.output.matchAll(/wrong\.ts\((\d+),\d+\): error/g)].map((match) => Number(match[1])));
    const expected = wrong.map((_, index) => index + 1).filter((line) => line >= 4 && line <= 12);
    expect([...lines].sort((a, b) => a - b)).toEqual(expected);
  });

  test("the package README's examples type-check against the package (the React one against nothing of React but its hooks)", () => {
    const readme = readFileSync(join(installed.project, "node_modules", "rule-server", "README.md"), "utf8");
    const examples = fencedBlocks(readme).filter((block) => block.words.includes("package-example"));
    expect(examples.map((block) => block.language)).toEqual(["ts", "ts", "ts", "tsx", "ts"]);
    // The examples that run in Node.js read process.env and node:fs: Node's own types, linked as an application installs them.
    const types = join(installed.project, "node_modules", "@types");
    mkdirSync(types, { recursive: true });
    try {
      symlinkSync(join(PROJECT_ROOT, "node_modules", "@types", "node"), join(types, "node"), "dir");
    } catch {
      // Linked by an earlier run of this test in the same process.
    }
    const files: Record<string, string> = { "react.d.ts": REACT_HOOKS };
    examples.forEach(
      (block, index) =>
        (files[`example${index}.${block.language}`] = block.text.includes("export ")
          ? block.text
          : `${block.text}\nexport {};\n`),
    );
    const run = typeCheck(files, "bundler", { types: ["node"], jsx: "react-jsx" });
    expect(run.output).toBe("");
    expect(run.status).toBe(0);
  });
});

test("every import of rule-server in the project's README names an export of the installed package", () => {
  const readme = readFileSync(join(PROJECT_ROOT, "README.md"), "utf8");
  const imports = fencedBlocks(readme).flatMap((block) => [
    ...block.text.matchAll(/^import \{([^}]*)\} from "(rule-server(?:\/[\w-]+)?)";/gm),
  ]);
  expect(imports.map((match) => match[2]).sort()).toEqual(["rule-server/client", "rule-server/engine"]);
  for (const [, names, specifier] of imports) {
    const entry = specifier === "rule-server/client" ? "client" : "engine";
    const exported = exportedNames(
      readFileSync(join(installed.project, "node_modules", "rule-server", `${entry}.d.ts`), "utf8"),
    );
    for (const name of names!.split(",").map((part) => part.trim().replace(/^type\s+/, "")))
      expect(exported, `${specifier}: ${name}`).toContain(name);
  }
});

/** The few declarations of React the README's example uses (a script, so that they are ambient); the package itself needs none. */
const REACT_HOOKS = `
declare module "react" {
  export function useState<T>(): [T | undefined, (value: T) => void];
  export function useState<T>(initial: T): [T, (value: T) => void];
  export function useEffect(effect: () => void | (() => void), dependencies: readonly unknown[]): void;
  export function useMemo<T>(compute: () => T, dependencies: readonly unknown[]): T;
}
declare module "react/jsx-runtime" {
  export const jsx: unknown, jsxs: unknown, Fragment: unknown;
  export namespace JSX {
    type Element = unknown;
    interface IntrinsicElements {
      input: { value: string; onChange: (event: { target: { value: string } }) => void };
      [name: string]: { [attribute: string]: unknown };
    }
  }
}
`;
