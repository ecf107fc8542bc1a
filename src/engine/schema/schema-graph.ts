import { JSON_TYPES, type JsonType } from "./json-type.ts";
import type { EmbeddedSchema } from "./entity-schema.ts";
import { compilePattern, formatNamed, type Format } from "./schema-formats.ts";
import type { Value } from "../value/value-kind.ts";

/** A compiled schema object: the keywords the validator checks, read and checked once. */
export class SchemaNode {
  rejectsAll = false;
  types: JsonType[] | undefined = undefined;
  nullable = false;
  ref: string | undefined = undefined;
  allOf: SchemaNode[] | undefined = undefined;
  anyOf: SchemaNode[] | undefined = undefined;
  oneOf: SchemaNode[] | undefined = undefined;
  not: SchemaNode | undefined = undefined;
  enumValues: Value[] | undefined = undefined;
  hasConst = false;
  constValue: Value = null;
  format: Format | undefined = undefined;
  pattern: RegExp | undefined = undefined;
  minLength: number | undefined = undefined;
  maxLength: number | undefined = undefined;
  minimum: number | undefined = undefined;
  maximum: number | undefined = undefined;
  exclusiveMinimum: number | undefined = undefined;
  exclusiveMaximum: number | undefined = undefined;
  multipleOf: number | undefined = undefined;
  minItems: number | undefined = undefined;
  maxItems: number | undefined = undefined;
  uniqueItems = false;
  prefixItems: SchemaNode[] | undefined = undefined;
  /** The schema of items after `prefixItems`; a rejecting node for `items: false`. */
  items: SchemaNode | undefined = undefined;
  minProperties: number | undefined = undefined;
  maxProperties: number | undefined = undefined;
  required: string[] | undefined = undefined;
  properties: Map<string, SchemaNode> | undefined = undefined;
  patternProperties: { readonly pattern: RegExp; readonly node: SchemaNode }[] | undefined = undefined;
  /** The schema of other members; a rejecting node closes the object (`additionalProperties: false`). */
  additionalProperties: SchemaNode | undefined = undefined;
  constructor(readonly id: number) {}
}

/** `true`, `{}` and anything that is not a schema: no constraint. */
export const ANYTHING = new SchemaNode(0);
/** `false`: nothing is valid. */
export const NOTHING = new SchemaNode(1);
NOTHING.rejectsAll = true;

/**
 * An entity's schema compiled once into a graph of nodes (schema-validator.ts walks it): each
 * schema object read and checked once, the same object always the same node (so cycles through
 * objects or `$ref`s are finite), definitions by their `$ref` string.
 */
export class SchemaGraph {
  readonly root: SchemaNode;
  readonly definitions = new Map<string, SchemaNode>();
  private readonly compiled = new Map<object, SchemaNode>();
  private nextId = 2;

  constructor(embedded: EmbeddedSchema) {
    const definitions = embedded.definitions;
    if (typeof definitions === "object" && definitions !== null) {
      for (const ref of Object.keys(definitions)) this.definitions.set(ref, this.compile(definitions[ref]));
    }
    this.root = this.compile(embedded.schema);
  }

  /** The node of a schema; ANYTHING for `true`, `{}`-like nothing and anything that is not a schema. */
  private compile(schema: unknown): SchemaNode {
    if (schema === false) return NOTHING;
    if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return ANYTHING;
    const known = this.compiled.get(schema);
    if (known !== undefined) return known;
    const node = new SchemaNode(this.nextId++);
    this.compiled.set(schema, node);
    const s = schema as Record<string, unknown>;
    const own = (keyword: string): unknown => (Object.hasOwn(s, keyword) ? s[keyword] : undefined);

    const type = own("type");
    const types = (Array.isArray(type) ? type : [type]).filter(
      (name): name is JsonType => typeof name === "string" && JSON_TYPES.has(name),
    );
    if (types.length > 0) node.types = types;
    node.nullable = own("nullable") === true;
    const ref = own("$ref");
    if (typeof ref === "string") node.ref = ref;
    node.allOf = this.compileList(own("allOf"));
    node.anyOf = this.compileList(own("anyOf"));
    node.oneOf = this.compileList(own("oneOf"));
    const not = own("not");
    // `not: {}` and `not: true` exclude everything; a `not` that is no schema excludes nothing.
    if (typeof not === "boolean" || isPlainObject(not)) node.not = this.compile(not);

    const enumValues = own("enum");
    if (Array.isArray(enumValues)) node.enumValues = enumValues as Value[];
    if (Object.hasOwn(s, "const")) {
      node.hasConst = true;
      node.constValue = s.const as Value;
    }
    const format = own("format");
    if (typeof format === "string") node.format = formatNamed(format);

    node.pattern = compilePattern(own("pattern"));
    node.minLength = count(own("minLength"));
    node.maxLength = count(own("maxLength"));

    node.minimum = finite(own("minimum"));
    node.maximum = finite(own("maximum"));
    const exclusiveMinimum = own("exclusiveMinimum");
    const exclusiveMaximum = own("exclusiveMaximum");
    // Draft 4 and OpenAPI 3.0: a boolean that makes `minimum`/`maximum` exclusive.
    if (exclusiveMinimum === true) [node.exclusiveMinimum, node.minimum] = [node.minimum, undefined];
    else node.exclusiveMinimum = finite(exclusiveMinimum);
    if (exclusiveMaximum === true) [node.exclusiveMaximum, node.maximum] = [node.maximum, undefined];
    else node.exclusiveMaximum = finite(exclusiveMaximum);
    const multipleOf = finite(own("multipleOf"));
    if (multipleOf !== undefined && multipleOf > 0) node.multipleOf = multipleOf;

    node.minItems = count(own("minItems"));
    node.maxItems = count(own("maxItems"));
    node.uniqueItems = own("uniqueItems") === true;
    const items = own("items");
    if (Array.isArray(items)) {
      // Before 2020-12 a list of `items` schemas is what `prefixItems` is now; `additionalItems` the rest.
      node.prefixItems = this.compileList(items);
      node.items = this.compileOptional(own("additionalItems"));
    } else {
      node.prefixItems = this.compileList(own("prefixItems"));
      node.items = this.compileOptional(items);
    }

    node.minProperties = count(own("minProperties"));
    node.maxProperties = count(own("maxProperties"));
    const required = own("required");
    if (Array.isArray(required)) {
      const names = [...new Set(required.filter((name): name is string => typeof name === "string"))];
      if (names.length > 0) node.required = names;
    }
    const properties = own("properties");
    if (isPlainObject(properties)) {
      node.properties = new Map();
      for (const name of Object.keys(properties)) node.properties.set(name, this.compile(properties[name]));
    }
    const patternProperties = own("patternProperties");
    if (isPlainObject(patternProperties)) {
      node.patternProperties = [];
      for (const source of Object.keys(patternProperties)) {
        const pattern = compilePattern(source);
        if (pattern !== undefined)
          node.patternProperties.push({ pattern, node: this.compile(patternProperties[source]) });
      }
    }
    node.additionalProperties = this.compileOptional(own("additionalProperties"));
    return node;
  }

  private compileList(list: unknown): SchemaNode[] | undefined {
    return Array.isArray(list) && list.length > 0 ? list.map((schema) => this.compile(schema)) : undefined;
  }

  /** A schema that constrains, or undefined for an absent or `true` one. */
  private compileOptional(schema: unknown): SchemaNode | undefined {
    if (schema === undefined) return undefined;
    const node = this.compile(schema);
    return node === ANYTHING ? undefined : node;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function finite(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

function count(value: unknown): number | undefined {
  return typeof value === "number" && value >= 0 ? value : undefined;
}
