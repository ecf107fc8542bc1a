import { describe, expect, test } from "bun:test";
import {
  componentSchemaValidator,
  matchPath,
  openApiDocument,
  resolveReference,
} from "../support/openapi-conformance.ts";

/**
 * openapi.yaml describes the wire API of SERVER.md (API version 1.1.0) as DECISIONS.md settles
 * it: the document itself, read as a whole. Answers checked against it are in openapi-answers.test.ts.
 */

type JsonObject = Record<string, unknown>;

const doc = openApiDocument;
const paths = doc.paths as Record<string, Record<string, JsonObject>>;
const components = doc.components as Record<string, Record<string, JsonObject>>;

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
      ["post", "/plans"],
      ["get", "/metrics"],
      ["get", "/openapi.json"],
      ["get", "/explorer"],
      ["get", "/explorer/"],
      ["get", "/explorer/{asset}"],
    ] as const;
    for (const [method, path] of table) expect(paths[path]?.[method], `${method} ${path}`).toBeDefined();
    for (const [method, path] of table) if (method === "get") expect(paths[path]?.head, `head ${path}`).toBeDefined();
    for (const path of ["/rulesets", "/rulesets/{id}/manifest", "/rulesets/{id}/rules/{ruleId}"])
      expect(paths[path]?.options, `options ${path}`).toBeDefined();
    expect(Object.keys(paths).sort()).toEqual(table.map(([, path]) => path).sort());
    expect(paths["/evaluations"]!.get).toBeUndefined();
  });

  test("declares every path template variable as a required path parameter", () => {
    for (const { path, method, operation } of operations()) {
      const declared = [
        ...((paths[path]!.parameters as unknown as unknown[] | undefined) ?? []),
        ...((operation.parameters as unknown[] | undefined) ?? []),
      ].map(resolved);
      for (const [, name] of path.matchAll(/\{([^}]+)\}/g)) {
        expect(
          declared.some(
            (parameter) => parameter.in === "path" && parameter.name === name && parameter.required === true,
          ),
          `${method} ${path}: {${name}}`,
        ).toBe(true);
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
      const names = ((operation.parameters as unknown[]) ?? [])
        .map(resolved)
        .map((parameter) => `${parameter.in}:${parameter.name}`);
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
      expect.arrayContaining([
        "EvaluationRequest",
        "EvaluationResult",
        "Finding",
        "Effect",
        "Command",
        "Manifest",
        "Bundle",
        "Rule",
        "RulesetEntry",
        "RulesetList",
        "Health",
        "Readiness",
        "Problem",
      ]),
    );
    for (const name of names) expect(typeof componentSchemaValidator(name), name).toBe("function");
  });

  test("security: HTTP bearer on the protected operations, optional on the manifest and rule details, none on the public ones", () => {
    expect(components.securitySchemes!.bearer).toMatchObject({ type: "http", scheme: "bearer" });
    const security = (path: string, method: string): unknown => paths[path]![method]!.security;
    for (const [path, method] of [
      ["/rulesets/{id}/bundle", "get"],
      ["/rulesets/{id}/bundle", "head"],
      ["/evaluations", "post"],
      ["/evaluations/batch", "post"],
    ] as const) {
      expect(security(path, method), `${method} ${path}`).toEqual([{ bearer: [] }]);
    }
    for (const path of ["/rulesets/{id}/manifest", "/rulesets/{id}/rules/{ruleId}"]) {
      for (const method of ["get", "head"])
        expect(security(path, method), `${method} ${path}`).toEqual([{}, { bearer: [] }]);
    }
    for (const { path, method, operation } of operations()) {
      if (
        ["/healthz", "/readyz", "/rulesets", "/openapi.json", "/explorer", "/explorer/", "/explorer/{asset}"].includes(
          path,
        ) ||
        method === "options"
      )
        expect(operation.security, `${method} ${path}`).toEqual([]);
    }
    for (const method of ["get", "head"])
      expect(security("/metrics", method), `${method} /metrics`).toEqual([{ bearer: [] }]);
  });

  test("responses: 401 and 403 with WWW-Authenticate, 304 with ETag and Cache-Control and no body, 409 no-store, 415 with Accept-Post, errors as problem+json", () => {
    for (const { path, method, operation } of operations()) {
      const security = operation.security as JsonObject[];
      const responses = operation.responses as Record<string, unknown>;
      if (security.some((requirement) => "bearer" in requirement))
        expect(Object.keys(responses), `${method} ${path}`).toEqual(expect.arrayContaining(["401", "403"]));
      for (const [status, reference] of Object.entries(responses)) {
        const response = resolved(reference);
        const headers = (response.headers ?? {}) as JsonObject;
        const content = response.content as JsonObject | undefined;
        const label = `${method} ${path} ${status}`;
        if (status === "401" || status === "403") expect(Object.keys(headers), label).toContain("WWW-Authenticate");
        if (status === "415") expect(Object.keys(headers), label).toContain("Accept-Post");
        if (status === "304") {
          expect(Object.keys(headers), label).toEqual(expect.arrayContaining(["ETag", "Cache-Control"]));
          expect(content, label).toBeUndefined();
        }
        if (status === "409")
          expect(resolved(headers["Cache-Control"]).schema, label).toEqual({ type: "string", const: "no-store" });
        if (method === "head" || method === "options") expect(content, label).toBeUndefined();
        else if (status.startsWith("4") || (status === "503" && path !== "/readyz"))
          expect(Object.keys(content ?? {}), label).toEqual(["application/problem+json"]);
        else if (status === "200")
          expect(Object.keys(content ?? {}), label).toEqual([...(MEDIA_TYPES_OF_200[path] ?? ["application/json"])]);
      }
    }
    expect(Object.keys(resolved(doc["x-unlisted-method-response"]).headers as JsonObject)).toContain("Allow");
    const evaluationStatuses = Object.keys(paths["/evaluations"]!.post!.responses as JsonObject).sort();
    expect(evaluationStatuses).toEqual(["200", "400", "401", "403", "404", "413", "415", "422", "503"]);
    expect(Object.keys(paths["/evaluations/batch"]!.post!.responses as JsonObject).sort()).toEqual([
      "200",
      "400",
      "401",
      "403",
      "413",
      "415",
      "503",
    ]);
    const manifestStatuses = Object.keys(paths["/rulesets/{id}/manifest"]!.get!.responses as JsonObject).sort();
    expect(manifestStatuses).toEqual(["200", "304", "400", "401", "403", "404", "409"]);
  });

  test("CORS headers are described on the public endpoints only", () => {
    const headersOf = (path: string, method: string, status: string): string[] =>
      Object.keys((resolved((paths[path]![method]!.responses as JsonObject)[status]).headers ?? {}) as JsonObject);
    for (const path of ["/rulesets", "/rulesets/{id}/manifest", "/rulesets/{id}/rules/{ruleId}"]) {
      expect(headersOf(path, "get", "200"), path).toEqual(
        expect.arrayContaining(["Access-Control-Allow-Origin", "Access-Control-Expose-Headers"]),
      );
      expect(headersOf(path, "options", "204"), path).toEqual(
        expect.arrayContaining(["Access-Control-Allow-Origin", "Access-Control-Allow-Headers"]),
      );
    }
    expect(headersOf("/rulesets/{id}/bundle", "get", "200")).not.toContain("Access-Control-Allow-Origin");
    expect(headersOf("/evaluations", "post", "401")).not.toContain("Access-Control-Allow-Origin");
  });

  test("every answer describes X-Request-Id; every compressible 200 describes Content-Encoding and Vary", () => {
    for (const { path, method, operation } of operations()) {
      for (const [status, reference] of Object.entries(operation.responses as JsonObject)) {
        expect(Object.keys((resolved(reference).headers ?? {}) as JsonObject), `${method} ${path} ${status}`).toContain(
          "X-Request-Id",
        );
      }
    }
    for (const path of [
      "/rulesets",
      "/rulesets/{id}/manifest",
      "/rulesets/{id}/bundle",
      "/rulesets/{id}/rules/{ruleId}",
      "/openapi.json",
    ]) {
      for (const method of ["get", "head"]) {
        const headers = Object.keys(
          resolved((paths[path]![method]!.responses as JsonObject)["200"]).headers as JsonObject,
        );
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
