import { readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import { parse } from "yaml";

/**
 * Checks answers of the server against its OpenAPI description (openapi.yaml at the project
 * root): the operation for a method and a concrete path, the response for a status, its media
 * type and its body, validated with the response schema by ajv (JSON Schema 2020-12, the schema
 * dialect of OpenAPI 3.1).
 *
 * The component schemas are registered once as one schema whose `$defs` are
 * `components.schemas`; every `#/components/schemas/<Name>` reference is rewritten to point there.
 * A method the path does not list is checked against the document's `x-unlisted-method-response`
 * (405), a path the document does not list against its `x-unknown-path-response` (404).
 */

type JsonObject = Record<string, unknown>;

export const OPENAPI_FILE = join(import.meta.dir, "..", "..", "openapi.yaml");

/** The parsed description (parsed once, shared by every caller). */
export const openApiDocument: JsonObject = parseDocument();

const SCHEMAS_ID = "urn:rule-server:openapi:components";
const COMPONENT_SCHEMA_REF = "#/components/schemas/";
const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

const ajv = createAjv();
const validators = new Map<string, ValidateFunction>();

/**
 * Throws an Error with a readable message unless the answer conforms to openapi.yaml.
 * `path` is the request path (a query or fragment is ignored); `contentType` is the
 * `Content-Type` header of the answer or null; `body` is the parsed JSON body, or
 * undefined/null/"" for an answer without a body.
 */
export function assertConformsToOpenApi(
  method: string,
  path: string,
  status: number,
  contentType: string | null,
  body: unknown,
): void {
  const verb = method.toLowerCase();
  const requestPath = path.replace(/[?#].*$/, "");
  const label = `${method.toUpperCase()} ${requestPath} -> ${status}`;

  const template = matchPath(requestPath);
  let response: JsonObject;
  let where: string;
  if (template === undefined) {
    where = "x-unknown-path-response";
    if (status !== 404)
      fail(label, `no path of openapi.yaml matches ${requestPath} (only 404 is described for unknown paths)`);
    response = resolveObject(openApiDocument[where], where);
  } else {
    const pathItem = resolveObject(objectMember(openApiDocument, "paths")[template], `paths.${template}`);
    const operation = pathItem[verb];
    if (operation === undefined) {
      where = "x-unlisted-method-response";
      const served = HTTP_METHODS.filter((m) => pathItem[m] !== undefined).map((m) => m.toUpperCase());
      if (status !== 405)
        fail(
          label,
          `${template} has no ${verb.toUpperCase()} operation (it serves ${served.join(", ")}); only 405 is described`,
        );
      response = resolveObject(openApiDocument[where], where);
    } else {
      const responses = objectMember(resolveObject(operation, `${template} ${verb}`), "responses");
      const key = [String(status), `${String(status)[0]}XX`, "default"].find(
        (candidate) => responses[candidate] !== undefined,
      );
      if (key === undefined)
        fail(
          label,
          `${verb.toUpperCase()} ${template} describes no response ${status} (described: ${Object.keys(responses).join(", ")})`,
        );
      where = `paths.${template}.${verb}.responses.${key}`;
      response = resolveObject(responses[key], where);
    }
  }

  const content = response.content === undefined ? undefined : resolveObject(response.content, `${where}.content`);
  // An answer to HEAD never has a body (RFC 9110 9.3.2), also where the fallback responses describe one.
  if (verb === "head" || content === undefined || Object.keys(content).length === 0) {
    if (body !== undefined && body !== null && body !== "")
      fail(label, `the description has no body for this answer (${where}), but one was sent: ${excerpt(body)}`);
    return;
  }
  if (contentType === null)
    fail(label, `the answer has no Content-Type; described: ${Object.keys(content).join(", ")}`);
  const mediaType = contentType.split(";")[0]!.trim().toLowerCase();
  const media = content[mediaType];
  if (media === undefined)
    fail(label, `media type ${mediaType} is not described; described: ${Object.keys(content).join(", ")}`);
  const schema = resolveObject(media, `${where}.content.${mediaType}`).schema;
  if (schema === undefined) return;
  const validatorKey = `${where} ${mediaType}`;
  let validate = validators.get(validatorKey);
  if (validate === undefined) {
    validate = ajv.compile(rewriteRefs(schema) as JsonObject);
    validators.set(validatorKey, validate);
  }
  if (!validate(body)) {
    const errors = (validate.errors ?? []).map(
      (error) =>
        `  ${error.instancePath || "(body)"} ${error.message ?? "is invalid"}${error.params && Object.keys(error.params).length > 0 ? ` ${JSON.stringify(error.params)}` : ""}`,
    );
    fail(
      label,
      `the body does not match the schema of ${where} (${mediaType}):\n${errors.join("\n")}\nbody: ${excerpt(body)}`,
    );
  }
}

/** The path template of openapi.yaml that a concrete path matches; literal segments win over templates. */
export function matchPath(requestPath: string): string | undefined {
  const segments = requestPath.split("/");
  let best: { template: string; literals: number } | undefined;
  for (const template of Object.keys(objectMember(openApiDocument, "paths"))) {
    const parts = template.split("/");
    if (parts.length !== segments.length) continue;
    let literals = 0;
    const matches = parts.every((part, index) => {
      const segment = segments[index]!;
      if (/^\{[^}]+\}$/.test(part)) return segment !== "";
      literals += 1;
      return part === segment;
    });
    if (matches && (best === undefined || literals > best.literals)) best = { template, literals };
  }
  return best?.template;
}

/** A validator for one component schema (`components.schemas.<name>`). */
export function componentSchemaValidator(name: string): ValidateFunction {
  if (objectMember(objectMember(openApiDocument, "components"), "schemas")[name] === undefined)
    throw new Error(`openapi.yaml has no component schema ${name}`);
  const validate = ajv.getSchema(`${SCHEMAS_ID}#/$defs/${name}`);
  if (validate === undefined) throw new Error(`component schema ${name} did not compile`);
  return validate;
}

/** The value a local reference (`#/...`) points to in openapi.yaml; throws when it points nowhere. */
export function resolveReference(ref: string): unknown {
  if (!ref.startsWith("#/")) throw new Error(`only local references are used in openapi.yaml, not ${ref}`);
  let node: unknown = openApiDocument;
  for (const raw of ref.slice(2).split("/")) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, key))
      throw new Error(`reference ${ref} does not resolve (no ${key})`);
    node = (node as JsonObject)[key];
  }
  return node;
}

function parseDocument(): JsonObject {
  const document: unknown = parse(readFileSync(OPENAPI_FILE, "utf8"));
  if (!isObject(document)) throw new Error(`${OPENAPI_FILE} is not a YAML mapping`);
  return document;
}

function createAjv(): Ajv2020 {
  const instance = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
  // RFC 3339 date-time, the only format openapi.yaml uses (no format package is installed).
  instance.addFormat(
    "date-time",
    /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/i,
  );
  const schemas = objectMember(objectMember(openApiDocument, "components"), "schemas");
  instance.addSchema({ $id: SCHEMAS_ID, $defs: rewriteRefs(schemas) as JsonObject });
  return instance;
}

/** A copy of a schema whose `#/components/schemas/<Name>` references point into the registered `$defs`. */
function rewriteRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewriteRefs);
  if (!isObject(node)) return node;
  const copy: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "$ref" && typeof value === "string") {
      if (!value.startsWith(COMPONENT_SCHEMA_REF))
        throw new Error(`a schema of openapi.yaml refers to ${value}; only ${COMPONENT_SCHEMA_REF}* is supported`);
      copy[key] = `${SCHEMAS_ID}#/$defs/${value.slice(COMPONENT_SCHEMA_REF.length)}`;
    } else {
      copy[key] = rewriteRefs(value);
    }
  }
  return copy;
}

/** Follows `$ref`s (responses, headers, media types) to the object they name. */
function resolveObject(node: unknown, where: string): JsonObject {
  let current = node;
  for (let hops = 0; isObject(current) && typeof current.$ref === "string"; hops += 1) {
    if (hops > 16) throw new Error(`openapi.yaml: reference loop at ${where}`);
    current = resolveReference(current.$ref);
  }
  if (!isObject(current)) throw new Error(`openapi.yaml: ${where} is not an object`);
  return current;
}

function objectMember(node: JsonObject, key: string): JsonObject {
  const value = node[key];
  if (!isObject(value)) throw new Error(`openapi.yaml: '${key}' is not an object`);
  return value;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function excerpt(body: unknown): string {
  const text = typeof body === "string" ? JSON.stringify(body) : (JSON.stringify(body) ?? String(body));
  return text.length > 600 ? `${text.slice(0, 600)}...` : text;
}

function fail(label: string, message: string): never {
  throw new Error(`OpenAPI conformance: ${label}: ${message}`);
}

/** An answer of test/cases/openapi/conforming-answers.json: a request's method, path and what it is answered. */
export interface ConformingAnswer {
  name: string;
  method: string;
  path: string;
  status: number;
  contentType: string | null;
  body?: unknown;
}

/** The answers every conforming server gives, as test/cases/openapi/conforming-answers.json holds them. */
export function conformingAnswers(): ConformingAnswer[] {
  return (
    JSON.parse(readFileSync(join(import.meta.dir, "..", "cases", "openapi", "conforming-answers.json"), "utf8")) as {
      answers: ConformingAnswer[];
    }
  ).answers;
}
