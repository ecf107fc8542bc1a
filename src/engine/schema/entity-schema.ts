import { unescapePointerToken } from "../value/json-pointer-token.ts";
import type { JsonValue } from "../value/json-value.ts";

/**
 * The JSON Schema of an entity (usually an OpenAPI component schema, OpenAPI 3.0 or 3.1 flavour)
 * as a manifest carries it, and what validating a request's `data` against it reports.
 */

/** An entity's schema as a manifest carries it: the schema node, and every local `$ref` it reaches (transitively), keyed by the `$ref` string exactly as written (e.g. "#/components/schemas/Party"). */
export interface EmbeddedSchema {
  readonly schema: JsonValue;
  readonly definitions: Readonly<Record<string, JsonValue>>;
}

export interface SchemaViolation {
  /** JSON Pointer into the validated value ("" for the root, "/beneficiary/iban"). */
  readonly pointer: string;
  /** The schema keyword that failed: type, required, enum, const, format, additionalProperties, pattern, minLength, maxLength, minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf, minItems, maxItems, uniqueItems, items, oneOf, anyOf, not, $ref ... */
  readonly keyword: string;
  /** One sentence for people, naming what was expected and what was found, e.g. "expected a number, got a string", "'amount' is required", "'salry' is not one of salary, invoice, rent, other", "unknown member 'amout'". */
  readonly message: string;
  /** For an unknown member when the schema closes the object (additionalProperties: false), or a value outside an enum of strings: the closest allowed name/value, when close enough. For a missing required member that an unknown member present is close to (amout -> amount), the required name. */
  readonly didYouMean?: string;
}

/**
 * Keywords whose value is a schema, a list of schemas or a map of schemas: where `$ref`s that
 * apply to a value can be. `$defs`/`definitions` are left out: a definition matters only when a
 * `$ref` reaches it, and it is embedded then. Values of `enum`, `const`, `example`, `default` and
 * `x-*` are data and never walked, so a `$ref` member in an example is not taken for a reference.
 */
const SCHEMA_KEYWORDS = [
  "items",
  "additionalItems",
  "additionalProperties",
  "not",
  "contains",
  "propertyNames",
  "if",
  "then",
  "else",
  "unevaluatedItems",
  "unevaluatedProperties",
];
const SCHEMA_LIST_KEYWORDS = ["allOf", "anyOf", "oneOf", "prefixItems", "items"];
const SCHEMA_MAP_KEYWORDS = ["properties", "patternProperties", "dependentSchemas"];

/** Collects the EmbeddedSchema of a schema node within its document: follows local `$ref`s transitively; an external or unresolvable `$ref` is left out (the validator then accepts anything there). */
export function embedSchema(document: JsonValue, schema: JsonValue): EmbeddedSchema {
  const definitions: Record<string, JsonValue> = {};
  const pending: JsonValue[] = [schema];
  const seen = new Set<unknown>();
  const visit = (node: JsonValue | undefined): void => {
    if (typeof node !== "object" || node === null || Array.isArray(node) || seen.has(node)) return;
    seen.add(node);
    const ref = node.$ref;
    if (typeof ref === "string" && !Object.hasOwn(definitions, ref)) {
      const target = resolveLocalRef(document, ref);
      if (target !== undefined) {
        definitions[ref] = target;
        pending.push(target);
      }
    }
    for (const keyword of SCHEMA_KEYWORDS) if (Object.hasOwn(node, keyword)) visit(node[keyword]);
    for (const keyword of SCHEMA_LIST_KEYWORDS) {
      const list = Object.hasOwn(node, keyword) ? node[keyword] : undefined;
      if (Array.isArray(list)) for (const item of list) visit(item);
    }
    for (const keyword of SCHEMA_MAP_KEYWORDS) {
      const map = Object.hasOwn(node, keyword) ? node[keyword] : undefined;
      if (typeof map === "object" && map !== null && !Array.isArray(map))
        for (const name of Object.keys(map)) visit(map[name]);
    }
  };
  while (pending.length > 0) visit(pending.pop());
  return { schema, definitions };
}

/**
 * The node a local `$ref` ("#", "#/components/schemas/Party", percent-encoded and `~0`/`~1`
 * escaped as URI fragments are) points to in `document`, or undefined for an external `$ref`, a
 * plain-name fragment (`#anchor`) or a pointer that leads nowhere.
 */
export function resolveLocalRef(document: JsonValue, ref: string): JsonValue | undefined {
  if (!ref.startsWith("#")) return undefined;
  if (ref === "#") return document;
  if (ref[1] !== "/") return undefined;
  let node: JsonValue | undefined = document;
  for (const raw of ref.slice(2).split("/")) {
    let token: string;
    try {
      token = decodeURIComponent(raw);
    } catch {
      return undefined;
    }
    token = unescapePointerToken(token);
    if (Array.isArray(node)) {
      if (!/^(?:0|[1-9][0-9]*)$/.test(token)) return undefined;
      node = node[Number(token)];
    } else if (typeof node === "object" && node !== null && Object.hasOwn(node, token)) {
      node = node[token];
    } else {
      return undefined;
    }
    if (node === undefined) return undefined;
  }
  return node;
}
