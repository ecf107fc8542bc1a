import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { docComment, isPlainObjectSchema, schemaTypeText } from "./schema-type-text.ts";

/**
 * src/client/wire-types.ts: every component schema of openapi.yaml as a TypeScript type, in the
 * document's order, each with its description. The client's request and answer types are these,
 * so they cannot drift from the description the server is tested against.
 */

export const OPENAPI_FILE = join(import.meta.dir, "..", "..", "openapi.yaml");
export const WIRE_TYPES_FILE = join(import.meta.dir, "..", "client", "wire-types.ts");

type JsonObject = Record<string, unknown>;

export function wireTypesModule(openApiYaml = readFileSync(OPENAPI_FILE, "utf8")): string {
  const document = parse(openApiYaml) as JsonObject;
  const schemas = ((document.components as JsonObject | undefined)?.schemas ?? {}) as Record<string, unknown>;
  const requestOnly = requestOnlySchemas(document);
  const declarations = Object.entries(schemas).map(([name, schema]) => {
    const options = { openObjects: !requestOnly.has(name) };
    const type = schemaTypeText(schema, `#/components/schemas/${name}`, options);
    const comment = docComment((schema as JsonObject).description, "");
    // A plain object type reads better, and shows better in editors, as an interface.
    return isPlainObjectSchema(schema)
      ? `${comment}export interface ${name} ${type}\n`
      : `${comment}export type ${name} = ${type};\n`;
  });
  return `${HEADER}\n${declarations.join("\n")}`;
}

const HEADER = `/**
 * The rule server's request and answer types: the component schemas of openapi.yaml as TypeScript,
 * written by src/codegen/ (\`bun src/codegen/write-wire-types.ts\`). Do not edit: change openapi.yaml
 * and write this file again (test/codegen/wire-types-module.test.ts fails until then).
 *
 * Answers admit the members their schema leaves open. Requests do not: the server ignores a member
 * a request schema does not list, so a misspelt one is a type error here.
 */
`;

/** The schemas that only requests reach: those named under a requestBody and under no response. */
function requestOnlySchemas(document: JsonObject): Set<string> {
  const components = (document.components ?? {}) as JsonObject;
  const schemas = (components.schemas ?? {}) as Record<string, unknown>;
  const inRequests = new Set<string>();
  const inAnswers = new Set<string>();
  const reach = (node: unknown, into: Set<string>): void => {
    if (Array.isArray(node)) for (const item of node) reach(item, into);
    else if (typeof node === "object" && node !== null) {
      for (const [key, value] of Object.entries(node)) {
        if (key === "$ref" && typeof value === "string") {
          const name = value.replace(/^#\/components\/(schemas|responses)\//, "");
          const target = value.startsWith("#/components/schemas/")
            ? schemas[name]
            : value.startsWith("#/components/responses/")
              ? (components.responses as JsonObject)[name]
              : undefined;
          if (value.startsWith("#/components/schemas/") && !into.has(name)) {
            into.add(name);
            reach(target, into);
          } else if (value.startsWith("#/components/responses/")) reach(target, into);
        } else reach(value, into);
      }
    }
  };
  for (const item of Object.values((document.paths ?? {}) as Record<string, JsonObject>)) {
    for (const operation of Object.values(item)) {
      if (typeof operation !== "object" || operation === null) continue;
      reach((operation as JsonObject).requestBody, inRequests);
      reach((operation as JsonObject).responses, inAnswers);
    }
  }
  for (const name of inAnswers) inRequests.delete(name);
  return inRequests;
}
