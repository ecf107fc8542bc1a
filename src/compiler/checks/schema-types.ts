import { isJsonObject, listAt } from "../../engine/value/json-access.ts";
import type { JsonObject, JsonValue } from "../../engine/value/json-value.ts";
import { valuesEqual } from "../../engine/value/value-equality.ts";
import { followFragment } from "./entity-schema.ts";
import { typeName, type TypeName } from "../../engine/value/value-kind.ts";

/**
 * What an entity's JSON Schema says about the values at a path, for the check warnings
 * (TYPE_MISMATCH, ENUM_VALUE_UNKNOWN, RULE_UNREACHABLE). A schema node is read together with
 * everything it must also satisfy: the local `$ref`s it follows and the members of its `allOf`,
 * so a view is a conjunction of schema objects. Whatever the view cannot tell for sure (a union
 * of types, `oneOf`, `anyOf`, a `$ref` into another file, a path the schema does not describe) is
 * unknown, and unknown says nothing.
 */

/** The kinds of value the expression language tells apart (specification 4.1, `typeOf`): the engine's names. */
export type ValueKind = TypeName;

/** The schema objects that all hold at one place of a document. */
export interface SchemaView {
  readonly document: JsonValue;
  readonly nodes: readonly JsonObject[];
}

const TYPE_KINDS: Readonly<Record<string, ValueKind>> = {
  string: "string",
  number: "number",
  integer: "number",
  boolean: "boolean",
  array: "list",
  object: "object",
  null: "null",
};

/** The kind of a JSON value, as `typeOf` names it. */
export const kindOf: (value: JsonValue) => ValueKind = typeName;

/**
 * The view of one schema node: it, the local `$ref`s it leads to and its `allOf` members,
 * recursively. A `$ref` to another file is not followed, and the view then tells nothing.
 */
export function viewOf(document: JsonValue, schema: JsonValue | undefined): SchemaView {
  const nodes: JsonObject[] = [];
  const seen = new Set<JsonObject>();
  let opaque = false;
  const add = (node: JsonValue | undefined, depth: number): void => {
    if (opaque || !isJsonObject(node) || seen.has(node) || depth > 64) return;
    seen.add(node);
    nodes.push(node);
    const ref = node.$ref;
    if (typeof ref === "string") {
      if (!ref.startsWith("#")) opaque = true;
      else {
        const followed = followFragment(document, ref.slice(1));
        if ("node" in followed) add(followed.node, depth + 1);
      }
    }
    for (const member of listAt(node.allOf)) add(member, depth + 1);
  };
  add(schema, 0);
  return { document, nodes: opaque ? [] : nodes };
}

/**
 * The view at a path of property names below a view (list elements by a digit segment), or
 * undefined where the schema does not describe the path for sure.
 */
export function viewAtPath(view: SchemaView, segments: readonly string[]): SchemaView | undefined {
  let current: SchemaView | undefined = view;
  for (const segment of segments) {
    if (current === undefined) return undefined;
    current = /^[0-9]+$/.test(segment) ? elementView(current) : propertyView(current, segment);
  }
  return current;
}

/**
 * The views at paths below one view, each found once: the rules of a ruleset read the same few
 * fields again and again, and finding a view walks and merges schema nodes.
 */
export class PathViews {
  private readonly found = new Map<string, SchemaView | undefined>();

  constructor(readonly view: SchemaView) {}

  at(segments: readonly string[]): SchemaView | undefined {
    const key = segments.join("\u0000");
    if (this.found.has(key)) return this.found.get(key);
    const view = viewAtPath(this.view, segments);
    this.found.set(key, view);
    return view;
  }
}

/** The view of a member of an object: the schemas of that property in every node that lists it. */
export function propertyView(view: SchemaView, name: string): SchemaView | undefined {
  if (kindOfView(view) === "list") return undefined;
  const found = view.nodes
    .filter((node) => isJsonObject(node.properties) && Object.hasOwn(node.properties, name))
    .map((node) => (node.properties as JsonObject)[name]!);
  if (found.length === 0) return undefined;
  return merged(view.document, found);
}

/** The view of the elements of a list: the `items` schemas of its nodes. */
export function elementView(view: SchemaView): SchemaView | undefined {
  const found = view.nodes.filter((node) => isJsonObject(node.items)).map((node) => node.items!);
  if (found.length === 0) return undefined;
  return merged(view.document, found);
}

function merged(document: JsonValue, schemas: readonly JsonValue[]): SchemaView | undefined {
  const nodes = schemas.flatMap((schema) => viewOf(document, schema).nodes);
  return nodes.length === 0 ? undefined : { document, nodes };
}

/**
 * The one kind the view allows besides null, or undefined when it allows several, none or it
 * cannot tell. `null` in a `type` list adds nothing: any field may be absent, and then it is null.
 */
export function kindOfView(view: SchemaView): ValueKind | undefined {
  let allowed: Set<ValueKind> | undefined;
  const narrow = (kinds: Iterable<ValueKind>): void => {
    const next = new Set<ValueKind>([...kinds].filter((kind) => kind !== "null"));
    allowed = allowed === undefined ? next : new Set([...allowed].filter((kind) => next.has(kind)));
  };
  for (const node of view.nodes) {
    if (Object.hasOwn(node, "oneOf") || Object.hasOwn(node, "anyOf")) {
      // A union: only a type written beside it still holds.
      if (!Object.hasOwn(node, "type")) continue;
    }
    const type = node.type;
    if (typeof type === "string") {
      const kind = TYPE_KINDS[type];
      if (kind === undefined) return undefined;
      narrow([kind]);
    } else if (Array.isArray(type)) {
      const kinds = type.map((entry) => (typeof entry === "string" ? TYPE_KINDS[entry] : undefined));
      if (kinds.some((kind) => kind === undefined)) return undefined;
      narrow(kinds as ValueKind[]);
    }
  }
  if (allowed === undefined) {
    // No type at all: an enum (or const) whose values are all of one kind still tells.
    const values = enumOfView(view);
    if (values !== undefined) narrow(values.map(kindOf));
  }
  if (allowed === undefined || allowed.size !== 1) return undefined;
  return [...allowed][0];
}

/** The values the view allows when it lists them (`enum`, `const`; several lists: the values in all), or undefined. */
export function enumOfView(view: SchemaView): JsonValue[] | undefined {
  let values: JsonValue[] | undefined;
  for (const node of view.nodes) {
    const listed = Array.isArray(node.enum) ? node.enum : Object.hasOwn(node, "const") ? [node.const!] : undefined;
    if (listed === undefined) continue;
    values =
      values === undefined ? [...listed] : values.filter((value) => listed.some((other) => valuesEqual(value, other)));
  }
  return values;
}
