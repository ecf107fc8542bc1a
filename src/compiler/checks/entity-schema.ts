import { isJsonObject, objectAt } from "../../engine/value/json-access.ts";
import type { JsonValue } from "../../engine/value/json-value.ts";
import { fragmentPath } from "../source/json-pointer.ts";

/**
 * Following paths through an entity's JSON Schema, for PATH_UNKNOWN (specification section 5,
 * step 10). Local `$ref`s (`#/...`) are followed; a schema that says nothing about a path (no
 * `properties`) accepts everything below it.
 */

/** A schema that accepts anything; returned where the schema says nothing about the path. */
export const OPEN_SCHEMA: JsonValue = Object.freeze({}) as JsonValue;

/** Where a fragment leaves its document: the deepest path of it that exists, and the names there. */
export interface FragmentMiss {
  readonly found: readonly string[];
  readonly missing: string;
  /** The member names of the node at `found`, or undefined when it is not an object. */
  readonly known: readonly string[] | undefined;
}

/** The node a `#/a/b` fragment names in a document, or where the fragment leaves it. */
export function followFragment(document: JsonValue, fragment: string): { node: JsonValue } | { miss: FragmentMiss } {
  let node: JsonValue = document;
  const found: string[] = [];
  for (const part of fragmentPath(fragment)) {
    if (!isJsonObject(node)) return { miss: { found, missing: part, known: undefined } };
    if (!Object.hasOwn(node, part)) return { miss: { found, missing: part, known: Object.keys(node) } };
    node = node[part]!;
    found.push(part);
  }
  return { node };
}

/** The node a fragment names, or undefined (see followFragment). */
function resolveFragment(document: JsonValue, fragment: string): JsonValue | undefined {
  const followed = followFragment(document, fragment);
  return "node" in followed ? followed.node : undefined;
}

/** Follows `$ref`s that stay inside the document; undefined for a chain that does not resolve or loops. */
function followLocalRefs(document: JsonValue, schema: JsonValue | undefined): JsonValue | undefined {
  let node = schema;
  for (let hops = 0; hops < 64; hops++) {
    const ref = isJsonObject(node) ? node.$ref : undefined;
    if (typeof ref !== "string" || !ref.startsWith("#")) return node;
    node = resolveFragment(document, ref);
  }
  return undefined;
}

const DIGITS = /^[0-9]+$/;

/** Where a path leaves a schema: the index of the first segment not described, and the names that are. */
export interface PathMiss {
  readonly index: number;
  readonly known: readonly string[];
}

/**
 * The schema at a path of property names (list elements by a digit segment), OPEN_SCHEMA where
 * the schema does not describe the path, or where the path leaves the schema.
 */
export function followSchemaPath(
  document: JsonValue,
  schema: JsonValue,
  segments: readonly string[],
): { schema: JsonValue } | { miss: PathMiss } {
  let current: JsonValue | undefined = schema;
  for (const [index, segment] of segments.entries()) {
    let node = followLocalRefs(document, current);
    if (!isJsonObject(node)) return { schema: OPEN_SCHEMA };
    if (node.type === "array" || Object.hasOwn(node, "items")) {
      node = followLocalRefs(document, Object.hasOwn(node, "items") ? node.items : OPEN_SCHEMA);
      if (!isJsonObject(node)) return { schema: OPEN_SCHEMA };
      current = node;
      if (DIGITS.test(segment)) continue;
    }
    if (!isJsonObject(node.properties)) return { schema: OPEN_SCHEMA };
    const properties = objectAt(node.properties);
    if (!Object.hasOwn(properties, segment)) return { miss: { index, known: Object.keys(properties) } };
    current = properties[segment];
  }
  return { schema: current ?? OPEN_SCHEMA };
}

/** The schema at a path, or undefined where the path is not in the schema (see followSchemaPath). */
export function schemaAtPath(
  document: JsonValue,
  schema: JsonValue,
  segments: readonly string[],
): JsonValue | undefined {
  const found = followSchemaPath(document, schema, segments);
  return "schema" in found ? found.schema : undefined;
}

/** The segments of a JSON Pointer as written in a ruleset (`/a/b`). */
export function pointerSegments(pointer: string): string[] {
  return pointer.replace(/^\/+|\/+$/g, "").split("/");
}
