/**
 * One JSON Schema of openapi.yaml (OpenAPI 3.1, JSON Schema 2020-12) as a TypeScript type. Only the
 * keywords the document uses are read; any other is a SchemaTypeError, so a new keyword in the
 * description is a decision about its type and never a silent `unknown`.
 */

type Schema = Record<string, unknown>;

/** A schema has a keyword this translation does not know how to type. */
export class SchemaTypeError extends Error {
  readonly code = "SCHEMA_NOT_TYPED" as const;
  override readonly name = "SchemaTypeError";
}

export interface TypeTextOptions {
  /**
   * Whether an object schema that does not say `additionalProperties` admits members it does not
   * list. JSON Schema says it does; a request's type may still refuse them, since the server
   * ignores them (a misspelt member is then a type error instead of a silently ignored one).
   */
  readonly openObjects: boolean;
}

/** Words that only describe or constrain a value, without changing its TypeScript type. */
const ANNOTATIONS = new Set([
  "description",
  "title",
  "format",
  "minimum",
  "maximum",
  "minItems",
  "maxItems",
  "minLength",
  "maxLength",
  "default",
  "examples",
  "required",
  "pattern",
]);
const KNOWN = new Set([
  ...ANNOTATIONS,
  "$ref",
  "const",
  "enum",
  "type",
  "oneOf",
  "anyOf",
  "allOf",
  "properties",
  "additionalProperties",
  "patternProperties",
  "items",
]);
const COMPONENT_SCHEMA_REF = "#/components/schemas/";

/** The TypeScript type of `schema`; `at` names its place in the document for error messages. */
export function schemaTypeText(schema: unknown, at: string, options: TypeTextOptions, indent = ""): string {
  if (schema === true) return "unknown";
  if (!isSchema(schema)) throw new SchemaTypeError(`${at}: a schema must be an object or true`);
  for (const keyword of Object.keys(schema))
    if (!KNOWN.has(keyword)) throw new SchemaTypeError(`${at}: the keyword '${keyword}' has no TypeScript translation`);
  if (typeof schema.$ref === "string") {
    if (!schema.$ref.startsWith(COMPONENT_SCHEMA_REF))
      throw new SchemaTypeError(`${at}: only ${COMPONENT_SCHEMA_REF}* references are typed, not ${schema.$ref}`);
    return schema.$ref.slice(COMPONENT_SCHEMA_REF.length);
  }
  const parts: string[] = [];
  const own = ownType(schema, at, options, indent);
  if (own !== undefined) parts.push(own);
  for (const [keyword, glue] of [
    ["oneOf", " | "],
    ["anyOf", " | "],
    ["allOf", " & "],
  ] as const) {
    const members = schema[keyword];
    if (members === undefined) continue;
    if (!Array.isArray(members)) throw new SchemaTypeError(`${at}/${keyword}: must be a list`);
    // An allOf member narrows the others: its unlisted members are theirs to allow, not its own.
    const memberOptions = keyword === "allOf" ? { openObjects: false } : options;
    const texts = members.map((member, index) =>
      schemaTypeText(member, `${at}/${keyword}/${index}`, memberOptions, indent),
    );
    const joined = texts.join(glue);
    parts.push(
      texts.length > 1 && (own !== undefined || members.length > 1) && hasTopLevel(joined, glue)
        ? `(${joined})`
        : joined,
    );
  }
  if (parts.length === 0) return "unknown";
  if (parts.length === 1)
    return parts[0]!.replace(/^\((.*)\)$/s, (whole, inner: string) => (balanced(inner) ? inner : whole));
  return parts.map((part) => (hasTopLevel(part, " | ") && !part.startsWith("(") ? `(${part})` : part)).join(" & ");
}

/** Whether a schema is typed as one object literal, which reads better as an interface. */
export function isPlainObjectSchema(schema: unknown): boolean {
  if (!isSchema(schema) || schema.$ref !== undefined) return false;
  if (["oneOf", "anyOf", "allOf", "enum", "const"].some((keyword) => schema[keyword] !== undefined)) return false;
  return schema.type === "object" || (schema.type === undefined && schema.properties !== undefined);
}

/** Whether `glue` (` | `, ` & `) joins parts of the type text outside any brackets. */
function hasTopLevel(text: string, glue: string): boolean {
  let depth = 0;
  let inTemplate = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (char === "`") inTemplate = !inTemplate;
    else if (inTemplate) continue;
    else if ("{([<".includes(char)) depth++;
    else if ("})]>".includes(char)) depth--;
    else if (depth === 0 && text.startsWith(glue, index)) return true;
  }
  return false;
}

/** Whether brackets in the text pair up, so that outer parentheses around it can go. */
function balanced(text: string): boolean {
  let depth = 0;
  for (const char of text) {
    if (char === "(") depth++;
    else if (char === ")" && --depth < 0) return false;
  }
  return depth === 0;
}

/** The type the schema's own keywords give (not its combinators), or undefined when they say nothing. */
function ownType(schema: Schema, at: string, options: TypeTextOptions, indent: string): string | undefined {
  if ("const" in schema) return literal(schema.const, `${at}/const`);
  if (Array.isArray(schema.enum))
    return schema.enum.map((value, index) => literal(value, `${at}/enum/${index}`)).join(" | ");
  const types =
    schema.type === undefined
      ? schema.properties !== undefined
        ? ["object"]
        : []
      : Array.isArray(schema.type)
        ? schema.type
        : [schema.type];
  if (types.length === 0) return undefined;
  const texts = types.map((type) => {
    switch (type) {
      case "string":
        return stringType(schema.pattern);
      case "integer":
      case "number":
        return "number";
      case "boolean":
        return "boolean";
      case "null":
        return "null";
      case "array": {
        const item =
          schema.items === undefined ? "unknown" : schemaTypeText(schema.items, `${at}/items`, options, indent);
        return hasTopLevel(item, " | ") || hasTopLevel(item, " & ") ? `(${item})[]` : `${item}[]`;
      }
      case "object":
        return objectType(schema, at, options, indent);
      default:
        throw new SchemaTypeError(`${at}/type: '${String(type)}' is not a JSON Schema type`);
    }
  });
  return texts.join(" | ");
}

/** A string whose pattern only fixes a prefix (`^x-`) is that prefix followed by any text. */
function stringType(pattern: unknown): string {
  if (typeof pattern !== "string") return "string";
  const prefix = /^\^((?:[A-Za-z0-9_:-]|\\\.)+)$/.exec(pattern);
  return prefix ? `\`${prefix[1]!.replace(/\\\./g, ".")}\${string}\`` : "string";
}

function objectType(schema: Schema, at: string, options: TypeTextOptions, indent: string): string {
  const inner = `${indent}  `;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const members: string[] = [];
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  if (!isSchema(properties)) throw new SchemaTypeError(`${at}/properties: must be an object`);
  for (const [name, property] of Object.entries(properties)) {
    const type = schemaTypeText(property, `${at}/properties/${name}`, options, inner);
    members.push(
      `${docComment(isSchema(property) ? property.description : undefined, inner)}${inner}${propertyName(name)}${required.has(name) ? "" : "?"}: ${type};`,
    );
  }
  for (const name of required) if (!(name in properties)) members.push(`${inner}${propertyName(name)}: unknown;`);
  const patterns = (schema.patternProperties ?? {}) as Record<string, unknown>;
  for (const [pattern, value] of Object.entries(patterns)) {
    const key = stringType(pattern);
    if (key === "string")
      throw new SchemaTypeError(`${at}/patternProperties: only prefix patterns (^x-) are typed, not ${pattern}`);
    members.push(
      `${inner}[member: ${key}]: ${schemaTypeText(value, `${at}/patternProperties/${pattern}`, options, inner)};`,
    );
  }
  const additional = schema.additionalProperties;
  const listsMembers = Object.keys(properties).length > 0 || Object.keys(patterns).length > 0;
  if (additional === true || (additional === undefined && (options.openObjects || !listsMembers)))
    members.push(`${inner}[member: string]: unknown;`);
  else if (isSchema(additional)) {
    if (listsMembers)
      throw new SchemaTypeError(`${at}/additionalProperties: a typed rest beside listed members is not typed`);
    members.push(
      `${inner}[member: string]: ${schemaTypeText(additional, `${at}/additionalProperties`, options, inner)};`,
    );
  } else if (additional !== undefined && additional !== false)
    throw new SchemaTypeError(`${at}/additionalProperties: must be a schema or a boolean`);
  return members.length === 0 ? "Record<string, never>" : `{\n${members.join("\n")}\n${indent}}`;
}

function literal(value: unknown, at: string): string {
  if (value !== null && typeof value === "object")
    throw new SchemaTypeError(`${at}: only a string, number, boolean or null is typed as a literal`);
  return JSON.stringify(value);
}

function propertyName(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name);
}

/** A description as a documentation comment, or nothing. */
export function docComment(description: unknown, indent: string): string {
  if (typeof description !== "string" || description.trim() === "") return "";
  const lines = description.trim().replaceAll("*/", "*\\/").split("\n");
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((line) => `${indent} *${line === "" ? "" : ` ${line}`}`).join("\n")}\n${indent} */\n`;
}

function isSchema(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
