import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { compileSourceFile } from "../../src/cli/compile-source-file.ts";
import { conformanceOperators } from "../../src/engine/conformance-operators.ts";
import { EngineSession } from "../../src/protocol/engine-session.ts";
import { ruleFilesOf } from "../../src/rule-files/rule-files-of-directory.ts";
import { CASES_DIR, goldenJsonFiles } from "../support/golden-files.ts";
import { assertConformsToOpenApi, componentSchemaValidator, conformingAnswers, matchPath, openApiDocument, resolveReference, type ConformingAnswer } from "../support/openapi-conformance.ts";
import { PROJECT_ROOT } from "../support/run-cli.ts";

/**
 * openapi.yaml describes the wire API of SERVER.md (API version 1.1.0) as DECISIONS.md settles
 * it, and assertConformsToOpenApi checks answers against it. Bodies come from the project's own
 * test data: the interop vectors, the golden evaluation cases, the shipped example rules.
 */

type JsonObject = Record<string, unknown>;
type Answer = ConformingAnswer;

const doc = openApiDocument;
const paths = doc.paths as Record<string, Record<string, JsonObject>>;
const components = doc.components as Record<string, Record<string, JsonObject>>;
const answers = conformingAnswers();
const clone = <T>(value: T): T => structuredClone(value);
const byName = (name: string): Answer => {
  const answer = answers.find((candidate) => candidate.name === name);
  if (!answer) throw new Error(`no conforming answer named ${name}`);
  return clone(answer);
};
const conforms = (answer: Answer): void => assertConformsToOpenApi(answer.method, answer.path, answer.status, answer.contentType, answer.body);

/** Every [value, JSON path] in the document, depth first. */
function walk(node: unknown, at: string, visit: (value: JsonObject, at: string) => void): void {
  if (Array.isArray(node)) node.forEach((item, index) => walk(item, `${at}/${index}`, visit));
  else if (typeof node === "object" && node !== null) {
    visit(node as JsonObject, at);
    for (const [key, value] of Object.entries(node)) walk(value, `${at}/${key}`, visit);
  }
}

function resolved(node: unknown): JsonObject {
  let current = node as JsonObject;
  while (typeof current.$ref === "string") current = resolveReference(current.$ref) as JsonObject;
  return current;
}

/** Every operation with its path and method. */
function operations(): { path: string; method: string; operation: JsonObject }[] {
  return Object.entries(paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => ["get", "head", "post", "put", "delete", "patch", "options", "trace"].includes(method))
      .map(([method, operation]) => ({ path, method, operation })),
  );
}

/** What a 200 sends where it is not JSON. */
const MEDIA_TYPES_OF_200: Readonly<Record<string, readonly string[]>> = {
  "/metrics": ["text/plain"],
  "/explorer/": ["text/html"],
  "/explorer/{asset}": ["text/javascript", "text/css", "image/svg+xml"],
};

describe("openapi.yaml: the document", () => {
  test("is OpenAPI 3.1 with the contract's API version", () => {
    expect(String(doc.openapi)).toMatch(/^3\.1\.\d+$/);
    expect(doc.info).toMatchObject({ title: "rule-server", version: "1.1.0" });
  });

  test("describes every endpoint of the contract's table, HEAD wherever GET is, and the preflights", () => {
    const table = [
      ["get", "/healthz"],
      ["get", "/readyz"],
      ["get", "/rulesets"],
      ["get", "/rulesets/{id}/manifest"],
      ["get", "/rulesets/{id}/bundle"],
      ["get", "/rulesets/{id}/rules/{ruleId}"],
      ["post", "/evaluations"],
      // Extensions of this server (DECISIONS.md).
      ["post", "/evaluations/batch"],
      ["get", "/metrics"],
      ["get", "/openapi.json"],
      ["get", "/explorer"],
      ["get", "/explorer/"],
      ["get", "/explorer/{asset}"],
    ] as const;
    for (const [method, path] of table) expect(paths[path]?.[method], `${method} ${path}`).toBeDefined();
    for (const [method, path] of table) if (method === "get") expect(paths[path]?.head, `head ${path}`).toBeDefined();
    for (const path of ["/rulesets", "/rulesets/{id}/manifest", "/rulesets/{id}/rules/{ruleId}"]) expect(paths[path]?.options, `options ${path}`).toBeDefined();
    expect(Object.keys(paths).sort()).toEqual(table.map(([, path]) => path).sort());
    expect(paths["/evaluations"]!.get).toBeUndefined();
  });

  test("declares every path template variable as a required path parameter", () => {
    for (const { path, method, operation } of operations()) {
      const declared = [...((paths[path]!.parameters as unknown as unknown[] | undefined) ?? []), ...((operation.parameters as unknown[] | undefined) ?? [])].map(resolved);
      for (const [, name] of path.matchAll(/\{([^}]+)\}/g)) {
        expect(declared.some((parameter) => parameter.in === "path" && parameter.name === name && parameter.required === true), `${method} ${path}: {${name}}`).toBe(true);
      }
    }
  });

  test("has no checksum query parameter anywhere (a server extension, SERVER.md Versioning 4)", () => {
    const checksumParameters: string[] = [];
    walk(doc, "#", (node, at) => {
      if (typeof node.in === "string" && node.name === "checksum") checksumParameters.push(at);
    });
    expect(checksumParameters).toEqual([]);
    for (const { operation } of operations()) {
      const names = ((operation.parameters as unknown[]) ?? []).map(resolved).map((parameter) => `${parameter.in}:${parameter.name}`);
      expect(names).not.toContain("query:checksum");
    }
  });

  test("every $ref resolves", () => {
    const refs: string[] = [];
    walk(doc, "#", (node) => {
      if (typeof node.$ref === "string") refs.push(node.$ref);
    });
    expect(refs.length).toBeGreaterThan(50);
    for (const ref of refs) expect(() => resolveReference(ref), ref).not.toThrow();
  });

  test("every component schema compiles with ajv (JSON Schema 2020-12, strict)", () => {
    const names = Object.keys(components.schemas!);
    expect(names).toEqual(
      expect.arrayContaining(["EvaluationRequest", "EvaluationResult", "Finding", "Effect", "Command", "Manifest", "Bundle", "Rule", "RulesetEntry", "RulesetList", "Health", "Readiness", "Problem"]),
    );
    for (const name of names) expect(typeof componentSchemaValidator(name), name).toBe("function");
  });

  test("security: HTTP bearer on the protected operations, optional on the manifest and rule details, none on the public ones", () => {
    expect(components.securitySchemes!.bearer).toMatchObject({ type: "http", scheme: "bearer" });
    const security = (path: string, method: string): unknown => paths[path]![method]!.security;
    for (const [path, method] of [["/rulesets/{id}/bundle", "get"], ["/rulesets/{id}/bundle", "head"], ["/evaluations", "post"], ["/evaluations/batch", "post"]] as const) {
      expect(security(path, method), `${method} ${path}`).toEqual([{ bearer: [] }]);
    }
    for (const path of ["/rulesets/{id}/manifest", "/rulesets/{id}/rules/{ruleId}"]) {
      for (const method of ["get", "head"]) expect(security(path, method), `${method} ${path}`).toEqual([{}, { bearer: [] }]);
    }
    for (const { path, method, operation } of operations()) {
      if (["/healthz", "/readyz", "/rulesets", "/openapi.json", "/explorer", "/explorer/", "/explorer/{asset}"].includes(path) || method === "options") expect(operation.security, `${method} ${path}`).toEqual([]);
    }
    for (const method of ["get", "head"]) expect(security("/metrics", method), `${method} /metrics`).toEqual([{ bearer: [] }]);
  });

  test("responses: 401 with WWW-Authenticate, 304 with ETag and Cache-Control and no body, 409 no-store, errors as problem+json", () => {
    for (const { path, method, operation } of operations()) {
      const security = operation.security as JsonObject[];
      const responses = operation.responses as Record<string, unknown>;
      if (security.some((requirement) => "bearer" in requirement)) expect(Object.keys(responses), `${method} ${path}`).toContain("401");
      for (const [status, reference] of Object.entries(responses)) {
        const response = resolved(reference);
        const headers = (response.headers ?? {}) as JsonObject;
        const content = response.content as JsonObject | undefined;
        const label = `${method} ${path} ${status}`;
        if (status === "401") expect(Object.keys(headers), label).toContain("WWW-Authenticate");
        if (status === "304") {
          expect(Object.keys(headers), label).toEqual(expect.arrayContaining(["ETag", "Cache-Control"]));
          expect(content, label).toBeUndefined();
        }
        if (status === "409") expect(resolved(headers["Cache-Control"]).schema, label).toEqual({ type: "string", const: "no-store" });
        if (method === "head" || method === "options") expect(content, label).toBeUndefined();
        else if (status.startsWith("4") || (status === "503" && path !== "/readyz")) expect(Object.keys(content ?? {}), label).toEqual(["application/problem+json"]);
        else if (status === "200") expect(Object.keys(content ?? {}), label).toEqual([...(MEDIA_TYPES_OF_200[path] ?? ["application/json"])]);
      }
    }
    expect(Object.keys(resolved(doc["x-unlisted-method-response"]).headers as JsonObject)).toContain("Allow");
    const evaluationStatuses = Object.keys(paths["/evaluations"]!.post!.responses as JsonObject).sort();
    expect(evaluationStatuses).toEqual(["200", "400", "401", "404", "413", "422", "503"]);
    expect(Object.keys(paths["/evaluations/batch"]!.post!.responses as JsonObject).sort()).toEqual(["200", "400", "401", "413"]);
    const manifestStatuses = Object.keys(paths["/rulesets/{id}/manifest"]!.get!.responses as JsonObject).sort();
    expect(manifestStatuses).toEqual(["200", "304", "400", "401", "404", "409"]);
  });

  test("CORS headers are described on the public endpoints only", () => {
    const headersOf = (path: string, method: string, status: string): string[] =>
      Object.keys((resolved((paths[path]![method]!.responses as JsonObject)[status]).headers ?? {}) as JsonObject);
    for (const path of ["/rulesets", "/rulesets/{id}/manifest", "/rulesets/{id}/rules/{ruleId}"]) {
      expect(headersOf(path, "get", "200"), path).toEqual(expect.arrayContaining(["Access-Control-Allow-Origin", "Access-Control-Expose-Headers"]));
      expect(headersOf(path, "options", "204"), path).toEqual(expect.arrayContaining(["Access-Control-Allow-Origin", "Access-Control-Allow-Headers"]));
    }
    expect(headersOf("/rulesets/{id}/bundle", "get", "200")).not.toContain("Access-Control-Allow-Origin");
    expect(headersOf("/evaluations", "post", "401")).not.toContain("Access-Control-Allow-Origin");
  });

  test("every answer describes X-Request-Id; every compressible 200 describes Content-Encoding and Vary", () => {
    for (const { path, method, operation } of operations()) {
      for (const [status, reference] of Object.entries(operation.responses as JsonObject)) {
        expect(Object.keys((resolved(reference).headers ?? {}) as JsonObject), `${method} ${path} ${status}`).toContain("X-Request-Id");
      }
    }
    for (const path of ["/rulesets", "/rulesets/{id}/manifest", "/rulesets/{id}/bundle", "/rulesets/{id}/rules/{ruleId}", "/openapi.json"]) {
      for (const method of ["get", "head"]) {
        const headers = Object.keys(resolved((paths[path]![method]!.responses as JsonObject)["200"]).headers as JsonObject);
        expect(headers, `${method} ${path}`).toEqual(expect.arrayContaining(["Content-Encoding", "Vary"]));
      }
    }
  });

  test("path matching: templates match one segment, a query is ignored", () => {
    expect(matchPath("/rulesets/shop.orders.order/manifest")).toBe("/rulesets/{id}/manifest");
    expect(matchPath("/rulesets/a/rules/b.c")).toBe("/rulesets/{id}/rules/{ruleId}");
    expect(matchPath("/rulesets")).toBe("/rulesets");
    expect(matchPath("/rulesets//manifest")).toBeUndefined();
    expect(matchPath("/rulesets/a/b/manifest")).toBeUndefined();
  });
});

describe("assertConformsToOpenApi accepts", () => {
  for (const answer of answers) test(answer.name, () => conforms(answer));
  test("answers to HEAD without a body, also on an unknown path", () => {
    assertConformsToOpenApi("HEAD", "/nowhere", 404, "application/problem+json", undefined);
    assertConformsToOpenApi("HEAD", "/rulesets/a/bundle", 401, "application/problem+json", "");
    assertConformsToOpenApi("HEAD", "/healthz", 200, "application/json", null);
  });
});

describe("assertConformsToOpenApi accepts what the engine and compiler really produce", () => {
  const evaluationFiles = goldenJsonFiles("evaluations") as { name: string; content: { bundle?: JsonObject; manifest?: JsonObject; cases: JsonObject[] } }[];

  test("every golden evaluation result", () => {
    let checked = 0;
    for (const { name, content } of evaluationFiles) {
      for (const evaluation of content.cases) {
        if (evaluation.result === undefined) continue;
        expect(() => assertConformsToOpenApi("POST", "/evaluations", 200, "application/json", evaluation.result), `${name} ${evaluation.name}`).not.toThrow();
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(50);
  });

  test("every golden bundle and manifest, and each of their rules", () => {
    for (const { name, content } of evaluationFiles) {
      const bundle = content.bundle;
      const manifests = bundle ? Object.values(bundle.manifests as JsonObject) : [content.manifest];
      if (bundle) expect(() => assertConformsToOpenApi("GET", `/rulesets/${String(bundle.id)}/bundle`, 200, "application/json", bundle), name).not.toThrow();
      for (const manifest of manifests as JsonObject[]) {
        expect(() => assertConformsToOpenApi("GET", `/rulesets/${String(manifest.id)}/manifest`, 200, "application/json", manifest), name).not.toThrow();
        for (const rule of manifest.rules as JsonObject[]) {
          expect(() => assertConformsToOpenApi("GET", `/rulesets/${String(manifest.id)}/rules/${String(rule.id)}`, 200, "application/json", rule), `${name} ${String(rule.id)}`).not.toThrow();
        }
      }
    }
  });

  test("the bundles, manifests and rules compiled from the shipped rules/", () => {
    const files = ruleFilesOf(join(PROJECT_ROOT, "rules")).source;
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const file of files) {
      const compilation = compileSourceFile(file);
      if (!compilation.ok) throw new Error(`${file} does not compile: ${JSON.stringify(compilation.problems)}`);
      const bundle = compilation.compiled.bundle;
      const id = String(bundle.id);
      assertConformsToOpenApi("GET", `/rulesets/${id}/bundle`, 200, "application/json", bundle);
      for (const manifest of Object.values(bundle.manifests as JsonObject) as JsonObject[]) {
        assertConformsToOpenApi("GET", `/rulesets/${id}/manifest?channel=${String(manifest.channel)}`, 200, "application/json", manifest);
        for (const rule of manifest.rules as JsonObject[]) assertConformsToOpenApi("GET", `/rulesets/${id}/rules/${String(rule.id)}`, 200, "application/json", rule);
      }
    }
  });

  test("the engine's results for the interop evaluations", () => {
    const interop = join(CASES_DIR, "interop");
    const cases = readFileSync(join(interop, "evaluations.jsonl"), "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line) as { bundle: string; channel: string; request: JsonObject });
    const session = new EngineSession({ operators: conformanceOperators });
    for (const evaluation of cases) {
      const bundle = JSON.parse(readFileSync(join(interop, evaluation.bundle), "utf8"));
      const response = JSON.parse(session.handleLine(JSON.stringify({ command: "evaluate", bundle, channel: evaluation.channel, request: evaluation.request }))!);
      expect(response.ok).toBe(true);
      assertConformsToOpenApi("POST", "/evaluations", 200, "application/json", response.result);
    }
  });

  test("explained results, both modes, for the golden evaluations and the interop evaluations", () => {
    const session = new EngineSession({ operators: conformanceOperators });
    const interop = join(CASES_DIR, "interop");
    const jobs: JsonObject[] = readFileSync(join(interop, "evaluations.jsonl"), "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line) as { bundle: string; channel: string; request: JsonObject })
      .map((evaluation) => ({ bundle: JSON.parse(readFileSync(join(interop, evaluation.bundle), "utf8")), channel: evaluation.channel, request: evaluation.request }));
    for (const { content } of goldenJsonFiles("evaluations") as { content: { bundle?: JsonObject; manifest?: JsonObject; cases: JsonObject[] } }[]) {
      for (const evaluation of content.cases) {
        if (evaluation.error !== undefined) continue;
        jobs.push({ ...(content.bundle !== undefined ? { bundle: content.bundle } : { manifest: content.manifest! }), channel: evaluation.channel ?? null, request: evaluation.request! });
      }
    }
    let explained = 0;
    for (const job of jobs) {
      for (const explain of ["rules", "full"]) {
        const response = JSON.parse(session.handleLine(JSON.stringify({ command: "evaluate", ...job, explain }))!);
        expect(response.ok).toBe(true);
        expect(response.result.explanation).toBeDefined();
        assertConformsToOpenApi("POST", "/evaluations", 200, "application/json", response.result);
        explained++;
      }
    }
    expect(explained).toBeGreaterThan(200);
  });
});

describe("the EvaluationRequest schema", () => {
  const validate = componentSchemaValidator("EvaluationRequest");
  const shapeCases = goldenJsonFiles("evaluations").find((file) => file.name === "request-shape.json")!.content as { cases: JsonObject[] };

  test("accepts the requests of the golden evaluations (with the ruleset id)", () => {
    for (const { name, content } of goldenJsonFiles("evaluations") as { name: string; content: { cases: JsonObject[] } }[]) {
      for (const evaluation of content.cases) {
        if (evaluation.error !== undefined) continue;
        const request = { ruleset: "acme.test", ...(evaluation.request as JsonObject) };
        if (evaluation.channel !== undefined) Object.assign(request, { channel: evaluation.channel });
        expect(validate(request), `${name} ${String(evaluation.name)}: ${JSON.stringify(validate.errors)}`).toBe(true);
      }
    }
  });

  test("rejects every request the engine refuses for its shape (nesting depth is beyond a schema)", () => {
    for (const evaluation of shapeCases.cases) {
      const error = evaluation.error as { message: string } | undefined;
      if (error === undefined || error.message.includes("nested more than")) continue;
      const request = evaluation.request;
      const withRuleset = typeof request === "object" && request !== null && !Array.isArray(request) ? { ruleset: "acme.test", ...request } : request;
      expect(validate(withRuleset), String(evaluation.name)).toBe(false);
    }
  });

  test("requires ruleset; channel is client, server or null", () => {
    expect(validate({ entity: "Order", operation: "create" })).toBe(false);
    expect(validate({ ruleset: "a", entity: "Order", operation: "create", channel: null, view: null, actor: null })).toBe(true);
    expect(validate({ ruleset: "a", entity: "Order", operation: "create", channel: "browser" })).toBe(false);
  });
});

describe("assertConformsToOpenApi rejects", () => {
  const evaluation = (): Answer => byName("evaluation vector 1: shop.orders.order server create -> deny");
  const rejects = (answer: Answer, message: RegExp): void => {
    expect(() => conforms(answer)).toThrow(message);
  };

  test("a decision that is neither allow nor deny", () => {
    const answer = evaluation();
    (answer.body as JsonObject).decision = "maybe";
    rejects(answer, /\/decision must be equal to one of the allowed values/);
  });

  test("a finding without rule", () => {
    const answer = evaluation();
    delete ((answer.body as JsonObject).findings as JsonObject[])[0]!.rule;
    rejects(answer, /\/findings\/0 must have required property 'rule'/);
  });

  test("a finding without args, and a result without the summary members", () => {
    const withoutArgs = evaluation();
    delete ((withoutArgs.body as JsonObject).findings as JsonObject[])[0]!.args;
    rejects(withoutArgs, /required property 'args'/);
    const withoutBlocking = evaluation();
    delete (withoutBlocking.body as JsonObject).blocking;
    rejects(withoutBlocking, /required property 'blocking'/);
  });

  test("a readiness body without loadedAt, or with a loadedAt that is not a date-time", () => {
    const answer = byName("readiness ready");
    delete (answer.body as JsonObject).loadedAt;
    rejects(answer, /required property 'loadedAt'/);
    const notADate = byName("readiness draining");
    (notADate.body as JsonObject).loadedAt = "yesterday";
    rejects(notADate, /\/loadedAt must match format "date-time"/);
    const readyWhileDraining = byName("readiness draining");
    readyWhileDraining.status = 200;
    rejects(readyWhileDraining, /\/status must be equal to constant/);
  });

  test("members the server does not send (closed shapes)", () => {
    const health = byName("health");
    (health.body as JsonObject).uptime = 3;
    rejects(health, /must NOT have additional properties/);
    const problem = byName("unknown ruleset");
    (problem.body as JsonObject).ruleset = "nope";
    rejects(problem, /must NOT have additional properties/);
  });

  test("a batch result with both a result and a problem, a problem without its status, or a result that is not one", () => {
    const both = byName("batch of evaluations");
    const results = (both.body as JsonObject).results as JsonObject[];
    results[0]!.problem = { type: "about:blank", title: "no", status: 400 };
    rejects(both, /\/results\/0 must match exactly one schema in oneOf/);
    const ok = byName("batch of evaluations");
    ((ok.body as JsonObject).results as JsonObject[])[2]!.status = 200;
    rejects(ok, /\/results\/2 must match exactly one schema in oneOf/);
    const notAResult = byName("batch of evaluations");
    delete (((notAResult.body as JsonObject).results as JsonObject[])[1]!.result as JsonObject).decision;
    rejects(notAResult, /\/results\/1/);
  });

  test("a 409 without the served checksum, and a checksum of the wrong form", () => {
    const answer = byName("pinned checksum no longer served");
    delete (answer.body as JsonObject).checksum;
    rejects(answer, /required property 'checksum'/);
    const list = byName("ruleset list");
    ((list.body as JsonObject).rulesets as JsonObject[])[0]!.checksum = "sha256:ABC";
    rejects(list, /\/rulesets\/0\/checksum must match pattern/);
  });

  test("a rule in a manifest without origin, and a ruleset status outside the lifecycle", () => {
    const manifest = byName("client manifest");
    delete ((manifest.body as JsonObject).rules as JsonObject[])[0]!.origin;
    rejects(manifest, /\/rules\/0 must have required property 'origin'/);
    const list = byName("ruleset list");
    ((list.body as JsonObject).rulesets as JsonObject[])[1]!.status = "published";
    rejects(list, /\/rulesets\/1\/status must be equal to one of the allowed values/);
  });

  test("the wrong media type, a body where none is described, a status that is not described", () => {
    const problem = byName("unknown ruleset");
    problem.contentType = "application/json";
    rejects(problem, /media type application\/json is not described/);
    const notModified = byName("manifest not modified");
    notModified.body = { status: "ok" };
    rejects(notModified, /has no body/);
    const head = byName("HEAD of the manifest");
    head.body = { id: "x" };
    rejects(head, /has no body/);
    rejects({ ...byName("health"), status: 418 }, /describes no response 418/);
    rejects({ ...byName("health"), contentType: null }, /no Content-Type/);
  });

  test("an unknown path or an unlisted method answered with anything but 404 or 405", () => {
    rejects({ ...byName("health"), path: "/nowhere" }, /no path of openapi.yaml matches/);
    rejects({ ...byName("health"), method: "DELETE" }, /has no DELETE operation/);
  });
});
