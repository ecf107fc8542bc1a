import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import * as sourceModule from "../../src/browser/rule-cascade.ts";
import { conformanceOperators } from "../../src/engine/conformance-operators.ts";
import { builtBrowserModule } from "../support/build-release.ts";
import { CASES_DIR, goldenJsonFiles } from "../support/golden-files.ts";
import { openInChromium, type ChromiumProcess } from "../support/headless-chromium.ts";
import { servePage, type PageServer } from "../support/page-server.ts";
import { PROJECT_ROOT } from "../support/run-cli.ts";
import { compileSourceFile } from "../../src/workspace/compile-source-file.ts";
import { runJobs, type JobOutcome, type Jobs } from "./page/run-jobs.ts";

/**
 * The built browser module in a real headless Chromium: every golden evaluation case and every
 * interop evaluation, through the bundle and through each of its manifests, on the main thread
 * (as closures, the default) and in a module Worker (with `codeGeneration`),
 * must give exactly what the engine gives under Bun for the same input, explanations included
 * (each bundle's cases also with `explain: rules` and `full`, and planned for allow and deny,
 * their conditions translated to SQL and Prisma). Under Bun, patterns
 * outside the linear subset run on RE2; in the page, on JavaScript.
 */
type Source = sourceModule.JsonValue;
interface GoldenFile {
  bundle?: { manifests: { server: Source; client: Source } };
  manifest?: Source;
  cases: { channel?: "server" | "client"; request: Source }[];
}

function collectJobs(): Jobs {
  const sources: Source[] = [];
  const jobs: {
    source: number;
    channel?: "server" | "client";
    request: Source;
    explain?: "rules" | "full";
    schemaEnforcement?: "warn" | "reject";
    plan?: "allow" | "deny";
  }[] = [];
  const add = (source: Source): number => sources.push(source) - 1;
  const throughEveryForm = (
    bundle: GoldenFile["bundle"] & Source,
    requests: { channel?: "server" | "client"; request: Source }[],
  ): void => {
    const [whole, server, client] = [add(bundle), add(bundle.manifests.server), add(bundle.manifests.client)];
    for (const { channel, request } of requests) {
      jobs.push({ source: whole, ...(channel ? { channel } : {}), request });
      // Explained in both modes: the same explanation as the engine under Bun.
      for (const explain of ["rules", "full"] as const)
        jobs.push({ source: whole, ...(channel ? { channel } : {}), request, explain });
      jobs.push({ source: channel === "client" ? client : server, request });
      jobs.push({ source: channel === "client" ? server : client, request });
      // Planned too: the request without its data, for both decisions.
      if (typeof request === "object" && request !== null && !Array.isArray(request)) {
        const { data: _data, ...withoutData } = request;
        for (const plan of ["allow", "deny"] as const)
          jobs.push({ source: whole, ...(channel ? { channel } : {}), request: withoutData, plan });
      }
    }
  };
  for (const file of goldenJsonFiles("evaluations")) {
    const golden = file.content as GoldenFile;
    if (golden.bundle) throughEveryForm(golden.bundle as GoldenFile["bundle"] & Source, golden.cases);
    else {
      const manifest = add(golden.manifest!);
      for (const { channel, request } of golden.cases)
        jobs.push({ source: manifest, ...(channel ? { channel } : {}), request });
    }
  }
  const interop = readFileSync(join(CASES_DIR, "interop", "evaluations.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line));
  for (const c of interop)
    throughEveryForm(JSON.parse(readFileSync(join(CASES_DIR, "interop", c.bundle), "utf8")), [
      { channel: c.channel, request: c.request },
    ]);
  // The corpus above holds few patterns: every pattern of the pattern table, each a rule, on the
  // table's subjects (short ones: outside the linear subset a backtracking engine can take seconds
  // on long ones, which is the browser build's documented trade-off).
  const table = JSON.parse(readFileSync(join(CASES_DIR, "patterns", "portable-patterns.json"), "utf8")) as {
    accepted: { pattern: string; matches: string[]; rejects: string[] }[];
  };
  const patternRules = add(patternManifest(table.accepted.map((entry) => entry.pattern)));
  const subjects = new Set(
    table.accepted.flatMap((entry) => [...entry.matches, ...entry.rejects]).filter((subject) => subject.length <= 64),
  );
  for (const subject of subjects)
    jobs.push({
      source: patternRules,
      request: { entity: "Text", operation: "check", data: { s: subject, p: "^(a|ab)(c|bcd)(d*)$" } },
    });
  // Requests checked against the rules/ example's schemas (a bundle compiled here carries them).
  const example = compileSourceFile(join(PROJECT_ROOT, "rules", "acme-payments-transfers.ruleset.yaml"));
  if (!example.ok) throw new Error("the rules/ example does not compile");
  const payments = add(example.compiled.bundle as Source);
  const paymentsClient = add((example.compiled.bundle as { manifests: { client: Source } }).manifests.client);
  const transfer = {
    entity: "Transfer",
    operation: "create",
    data: {
      id: "T-1",
      amount: 120,
      debtor: { iban: "DE89370400440532013000" },
      beneficiary: { iban: "DE75512108001245126199" },
    },
  };
  const misfits = [
    transfer,
    { ...transfer, entity: "Transfre" },
    { ...transfer, operation: "craete" },
    { ...transfer, data: { id: "T-1", amout: 120, purpose: "salry", executionDate: "2026-02-30" } },
  ];
  for (const source of [payments, paymentsClient]) {
    for (const request of misfits)
      for (const schemaEnforcement of ["warn", "reject"] as const)
        jobs.push({ source, request: request as Source, schemaEnforcement });
  }
  // Input the module must refuse as the server does.
  const refused = [
    add({ ruleCascadeBundle: "2.0.0", manifests: {} }),
    add({ ruleCascadeBundle: "1.0.0", manifests: {} }),
    add({ id: "x" }),
    add("{not json"),
  ];
  for (const source of refused) jobs.push({ source, request: {} });
  const shop = sources[jobs.find((job) => job.request && JSON.stringify(job.request).includes("Order"))!.source]!;
  const any = add(shop);
  for (const request of [
    [],
    "text",
    { entity: 1, operation: "create" },
    { entity: "Order", operation: "create", view: 3 },
    { entity: "Order", operation: "create", channel: "public" },
    { entity: "Order", operation: "create", actor: { roles: [1] } },
  ]) {
    jobs.push({ source: any, request: request as Source });
  }
  return { sources, jobs };
}

/** A client manifest with one rule per pattern, and one whose pattern comes from the request. */
function patternManifest(patterns: readonly string[]): Source {
  const rule = (id: string, pattern: Source): Source => ({
    id,
    kind: "validation",
    target: { entity: "Text", field: "/s" },
    operations: ["check"],
    assert: { op: "matches", args: [{ var: "data.s" }, pattern] },
    severity: "error",
    finding: { code: id, message: "m" },
  });
  return {
    ruleCascade: "1.0.0",
    id: "test.patterns",
    version: "1.0.0",
    checksum: `sha256:${"0".repeat(64)}`,
    channel: "client",
    conflictPolicy: "fail",
    defaultLocale: "en",
    params: {},
    fieldTypes: {},
    functions: {},
    operators: [],
    messages: { en: { m: "no match" } },
    rules: [
      ...patterns.map((pattern, index) => rule(`pattern-${index}`, pattern)),
      rule("pattern-from-data", { var: "data.p" }),
    ],
  };
}

const jobs = collectJobs();
let page: PageServer;
let chromium: ChromiumProcess;
let expected: JobOutcome[];
let moduleSize = 0;

beforeAll(async () => {
  const browserModule = readFileSync(builtBrowserModule());
  // As build.ts measures it for the README.
  moduleSize = gzipSync(browserModule, { level: 9 }).length;
  const operators = await Bun.build({
    entrypoints: [join(PROJECT_ROOT, "src", "engine", "conformance-operators.ts")],
    target: "browser",
    format: "esm",
  });
  const transpiler = new Bun.Transpiler({ loader: "ts" });
  const pageFile = (name: string): string => readFileSync(join(import.meta.dir, "page", name), "utf8");
  page = servePage({
    "/index.html": { type: "text/html", body: pageFile("index.html") },
    "/page.js": { type: "text/javascript", body: pageFile("page.js") },
    "/worker.js": { type: "text/javascript", body: pageFile("worker.js") },
    "/run-jobs.js": { type: "text/javascript", body: transpiler.transformSync(pageFile("run-jobs.ts")) },
    "/rule-cascade.js": { type: "text/javascript", body: browserModule.toString("utf8") },
    "/conformance-operators.js": { type: "text/javascript", body: await operators.outputs[0]!.text() },
    "/jobs.json": { type: "application/json", body: JSON.stringify(jobs) },
  });
  expected = JSON.parse(JSON.stringify(await runJobs(sourceModule, { operators: conformanceOperators }, jobs)));
  chromium = openInChromium(page.url);
}, 60000);

afterAll(async () => {
  await chromium?.close();
  page?.stop();
});

/** Waits for the page's report; a browser that cannot start fails the test with what it printed. */
async function reported(name: string): Promise<JobOutcome[]> {
  const timeout = Bun.sleep(90_000).then(() => ({
    failed: `no report from Chromium within 90 s:\n${chromium.output()}`,
  }));
  const exited = chromium.exited.then(async (status) => {
    await Bun.sleep(2000);
    return { failed: `Chromium exited with ${status} before reporting:\n${chromium.output()}` };
  });
  const outcome = (await Promise.race([page.report(name), timeout, exited])) as JobOutcome[] | { failed: string };
  if (!Array.isArray(outcome)) throw new Error(outcome.failed);
  return outcome;
}

function differences(actual: JobOutcome[]): string[] {
  const found: string[] = [];
  expected.forEach((outcome, index) => {
    const a = JSON.stringify(actual[index]);
    const e = JSON.stringify(outcome);
    if (a !== e)
      found.push(
        `job ${index} (${JSON.stringify(jobs.jobs[index]!.request).slice(0, 80)}):\n  Chromium ${a?.slice(0, 400)}\n  Bun      ${e.slice(0, 400)}`,
      );
  });
  return found;
}

describe("rule-cascade.js in headless Chromium", () => {
  test("the jobs cover the golden cases and interop vectors, results and refusals", () => {
    expect(jobs.jobs.length).toBeGreaterThan(850);
    expect(expected.filter((outcome) => "result" in outcome).length).toBeGreaterThan(700);
    const explained = expected.filter((outcome) => "result" in outcome && outcome.result.explanation !== undefined);
    expect(explained.length).toBeGreaterThan(200);
    expect(
      explained.some(
        (outcome) =>
          "result" in outcome &&
          outcome.result.explanation!.rules.some((rule) => rule.when !== undefined || rule.assert !== undefined),
      ),
    ).toBe(true);
    // Schema enforcement: warnings under warn (an unknown field among them), refusals listing them under reject.
    const warned = expected.filter((outcome) => "result" in outcome && outcome.result.warnings !== undefined);
    expect(warned.length).toBe(6);
    expect(
      warned.some(
        (outcome) =>
          "result" in outcome &&
          outcome.result.warnings!.some(
            (warning) => warning.pointer === "/data/amount" && warning.didYouMean === "amount",
          ),
      ),
    ).toBe(true);
    expect(expected.filter((outcome) => "error" in outcome && outcome.error.code === "REQUEST_MISFIT").length).toBe(6);
    expect(expected.filter((outcome) => "error" in outcome && outcome.error.code === "LOAD_FAILED").length).toBe(4);
    expect(
      expected.filter((outcome) => "error" in outcome && outcome.error.code === "BAD_REQUEST").length,
    ).toBeGreaterThanOrEqual(5);
    // Plans, with conditions the module translates to SQL (and, for mapped fields, to Prisma).
    const conditional = expected.filter((outcome) => "plan" in outcome && outcome.plan.kind === "conditional");
    expect(conditional.length).toBeGreaterThan(50);
    expect(conditional.every((outcome) => "sql" in outcome && outcome.sql !== null)).toBe(true);
  });

  test("on the main thread, every result is exactly Bun's", async () => {
    const actual = await reported("main");
    expect(actual.length).toBe(expected.length);
    expect(differences(actual)).toEqual([]);
  });

  test("in a module Worker, with code generation, every result is exactly Bun's", async () => {
    const actual = await reported("worker");
    expect(actual.length).toBe(expected.length);
    expect(differences(actual)).toEqual([]);
  });

  test("the page fetched nothing but its own files: no WebAssembly, no other module", () => {
    const fetched = new Set(page.requested.filter((path) => !path.startsWith("/report/") && path !== "/favicon.ico"));
    expect([...fetched].sort()).toEqual([
      "/",
      "/conformance-operators.js",
      "/jobs.json",
      "/page.js",
      "/rule-cascade.js",
      "/run-jobs.js",
      "/worker.js",
    ]);
  });

  test("the module is within its size budget of 80 KB gzip", () => {
    expect(moduleSize).toBeGreaterThan(10_000);
    expect(moduleSize).toBeLessThanOrEqual(80_000);
  });
});
