import { daysInMonth } from "../date/gregorian-calendar.ts";
import { closestName } from "../names/closest-name.ts";
import { compare } from "../number/arithmetic.ts";
import { canonicalNumberText } from "../number/canonical-number.ts";
import { isDecimal, type NumberValue } from "../number/decimal.ts";
import { canonicalJson } from "../value/canonical-json.ts";
import { codePointLength } from "../value/code-points.ts";
import type { JsonValue } from "../value/json-value.ts";
import { valuesEqual } from "../value/value-equality.ts";
import type { Value } from "../value/value-kind.ts";
import type { EmbeddedSchema, SchemaViolation } from "./entity-schema.ts";

export { embedSchema, type EmbeddedSchema, type SchemaViolation } from "./entity-schema.ts";

/**
 * Validates values against an entity's JSON Schema (OpenAPI 3.0 and 3.1 / draft 2020-12 flavours)
 * and says where and why a value does not fit, with a JSON Pointer to each violation.
 *
 * The schema is compiled once into a graph of nodes (no code generation: pages with a strict
 * Content-Security-Policy run this too); validating is one walk of the value. At each place in the
 * value the walk gathers every schema node that applies there (the node, what its `$ref` points
 * to, its `allOf` parts), checks their keywords, then visits the members or items in the order the
 * value has them, each against every member schema that applies: violations come out in document
 * order of the value. A node whose `type` does not fit reports that alone (one type violation per
 * place): what else it says about a value of another type is noise.
 *
 * Chosen where the specifications leave room or disagree:
 * - OpenAPI 3.0 `nullable: true` accepts null for the whole node, also next to `enum` or `allOf`
 *   (as schema authors mean it, not only as an extra type).
 * - `$ref` siblings apply (2020-12), also in OpenAPI 3.0 schemas.
 * - A `$ref` the definitions do not hold (external, unresolvable) accepts anything.
 * - Of `format`, only date, date-time, time (RFC 3339, with an offset), email, uuid and uri are
 *   checked; any other format is an annotation.
 * - An invalid `pattern` is ignored. Patterns are ECMAScript regular expressions with the `u` flag.
 * - A schema node that applies again at the same place while it is being applied (a `$ref` cycle
 *   that does not go down into the value) is taken as satisfied there; values nested deeper than
 *   MAX_DEPTH are not looked into.
 */

/** How deep into a value the walk goes; requests are limited to far less (value-depth.ts). */
const MAX_DEPTH = 256;
/** Ids of (node, depth) pairs in the set of nodes being applied: depth fits below this. */
const DEPTH_SPAN = 1024;
const DEFAULT_LIMIT = 50;

type JsonType = "null" | "boolean" | "object" | "array" | "number" | "integer" | "string";
const JSON_TYPES = new Set<string>(["null", "boolean", "object", "array", "number", "integer", "string"]);

interface Format {
  readonly test: (text: string) => boolean;
  /** What the value is not, after "is not". */
  readonly expected: string;
}

/** A compiled schema object: the keywords the validator checks, read and checked once. */
class SchemaNode {
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
const ANYTHING = new SchemaNode(0);
/** `false`: nothing is valid. */
const NOTHING = new SchemaNode(1);
NOTHING.rejectsAll = true;

/** The state of one validation: what was found so far, where the walk is, which nodes apply. */
class Walk {
  readonly violations: SchemaViolation[] = [];
  constructor(
    readonly limit: number,
    /** Member names and item indexes from the root to the current place. */
    readonly path: (string | number)[],
    /** `node.id * DEPTH_SPAN + depth` of every node being applied on the way to the current place. */
    readonly active: Set<number>,
  ) {}

  get full(): boolean {
    return this.violations.length >= this.limit;
  }

  report(keyword: string, message: string, didYouMean?: string, member?: string): void {
    if (this.full) return;
    let pointer = "";
    for (const token of this.path) pointer += "/" + escapeToken(String(token));
    if (member !== undefined) pointer += "/" + escapeToken(member);
    this.violations.push(didYouMean === undefined ? { pointer, keyword, message } : { pointer, keyword, message, didYouMean });
  }
}

/** What the walk knows about one place of the value while it checks the nodes that apply there. */
interface Place {
  readonly value: unknown;
  readonly depth: number;
  /** The nodes that apply and whose type fits. */
  readonly applied: SchemaNode[];
  /** Members of an object value that no applied node names (computed when needed). */
  unknownMembers?: string[];
  knownNames?: Set<string>;
  /** A type violation was reported here: one is enough for a place. */
  typeReported: boolean;
  /** The cycle keys this place added (only nodes a cycle can go through are tracked, see enter). */
  entered: number[] | undefined;
}

/** Compiled once per schema (per loaded ruleset), used for every request: keep per-request work to a walk of the value. */
export class SchemaValidator {
  private readonly root: SchemaNode;
  private readonly definitions = new Map<string, SchemaNode>();
  private readonly compiled = new Map<object, SchemaNode>();
  private nextId = 2;

  constructor(embedded: EmbeddedSchema) {
    const definitions = embedded.definitions;
    if (typeof definitions === "object" && definitions !== null) {
      for (const ref of Object.keys(definitions)) this.definitions.set(ref, this.compile(definitions[ref]));
    }
    this.root = this.compile(embedded.schema);
  }

  /** Every violation, in document order of the value, at most `limit` (default 50). Never throws on any JSON value. */
  validate(value: JsonValue, limit: number = DEFAULT_LIMIT): SchemaViolation[] {
    const most = Number.isNaN(limit) ? DEFAULT_LIMIT : Math.floor(limit);
    if (!(most > 0)) return [];
    const walk = new Walk(most, [], new Set());
    this.validateAt(walk, value, [this.root], 0);
    return walk.violations;
  }

  // ---- compiling ----

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
    const types = (Array.isArray(type) ? type : [type]).filter((name): name is JsonType => typeof name === "string" && JSON_TYPES.has(name));
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
        if (pattern !== undefined) node.patternProperties.push({ pattern, node: this.compile(patternProperties[source]) });
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

  // ---- validating ----

  /** Checks `value` (at walk.path, `depth` deep) against every node of `nodes`. */
  private validateAt(walk: Walk, value: unknown, nodes: readonly SchemaNode[], depth: number): void {
    if (depth > MAX_DEPTH || walk.full) return;
    const place: Place = { value, depth, applied: [], typeReported: false, entered: undefined };
    for (const node of nodes) this.enter(walk, place, node, false);
    for (const node of place.applied) {
      if (walk.full) break;
      this.checkNode(walk, place, node);
    }
    if (!walk.full && place.applied.length > 0) {
      if (Array.isArray(value)) this.validateItems(walk, value, place);
      else if (isObjectValue(value)) this.validateMembers(walk, value, place);
    }
    if (place.entered !== undefined) for (const key of place.entered) walk.active.delete(key);
  }

  /** Adds a node and what it brings along (`$ref`, `allOf`) to the nodes applied at a place, when its type fits. */
  private enter(walk: Walk, place: Place, node: SchemaNode, viaRef: boolean): void {
    if (node === ANYTHING) return;
    // Only a `$ref` target or a node that composes others (allOf, anyOf, oneOf, not) can lead back to
    // itself without going deeper into the value, so only those are tracked.
    if (viaRef || node.allOf !== undefined || node.anyOf !== undefined || node.oneOf !== undefined || node.not !== undefined) {
      // A schema that re-enters itself without going deeper into the value is satisfied there.
      const key = node.id * DEPTH_SPAN + place.depth;
      if (walk.active.has(key)) return;
      walk.active.add(key);
      (place.entered ??= []).push(key);
    }
    const value = place.value;
    if (node.rejectsAll) {
      walk.report("false", "no value is allowed here");
      return;
    }
    if (node.nullable && value === null) return;
    if (node.types !== undefined && !node.types.some((type) => hasType(value, type))) {
      if (!place.typeReported) walk.report("type", typeMessage(node.types, node.nullable, value));
      place.typeReported = true;
      return;
    }
    place.applied.push(node);
    if (node.ref !== undefined) {
      const target = this.definitions.get(node.ref);
      if (target !== undefined) this.enter(walk, place, target, true);
    }
    if (node.allOf !== undefined) for (const part of node.allOf) this.enter(walk, place, part, false);
  }

  /** The keywords of one node about the value itself (members and items are visited afterwards). */
  private checkNode(walk: Walk, place: Place, node: SchemaNode): void {
    const value = place.value;
    if (node.hasConst && !valuesEqual(value as Value, node.constValue)) {
      walk.report("const", `expected ${shown(node.constValue)}, got ${shown(value)}`);
    }
    if (node.enumValues !== undefined && !node.enumValues.some((allowed) => valuesEqual(value as Value, allowed))) {
      const names = typeof value === "string" ? node.enumValues.filter((allowed): allowed is string => typeof allowed === "string") : [];
      walk.report("enum", `${shown(value)} is not one of ${listed(node.enumValues)}`, typeof value === "string" ? closestName(value, names) : undefined);
    }
    if (typeof value === "string") this.checkString(walk, value, node);
    else if (isNumber(value)) this.checkNumber(walk, value, node);
    else if (Array.isArray(value)) this.checkArray(walk, value, node);
    else if (isObjectValue(value)) this.checkObject(walk, value, place, node);
    if (node.anyOf !== undefined && !walk.full && !node.anyOf.some((branch) => this.matches(walk, place, branch))) {
      walk.report("anyOf", noneMatched(node.anyOf.length));
    }
    if (node.oneOf !== undefined && !walk.full) {
      let matching = 0;
      for (const branch of node.oneOf) if (this.matches(walk, place, branch) && ++matching > 1) break;
      if (matching === 0) walk.report("oneOf", noneMatched(node.oneOf.length));
      else if (matching > 1) walk.report("oneOf", `matches more than one of the ${node.oneOf.length} allowed shapes, but must match exactly one`);
    }
    if (node.not !== undefined && !walk.full && this.matches(walk, place, node.not)) walk.report("not", "matches a shape that is not allowed here");
  }

  private checkString(walk: Walk, value: string, node: SchemaNode): void {
    if (node.format !== undefined && !node.format.test(value)) walk.report("format", `${shown(value)} is not ${node.format.expected}`);
    if (node.minLength !== undefined || node.maxLength !== undefined) {
      const length = codePointLength(value);
      if (node.minLength !== undefined && length < node.minLength) walk.report("minLength", `expected at least ${characters(node.minLength)}, got ${length}`);
      if (node.maxLength !== undefined && length > node.maxLength) walk.report("maxLength", `expected at most ${characters(node.maxLength)}, got ${length}`);
    }
    if (node.pattern !== undefined && !node.pattern.test(value)) walk.report("pattern", `${shown(value)} does not match the pattern ${node.pattern.source}`);
  }

  private checkNumber(walk: Walk, value: NumberValue, node: SchemaNode): void {
    const text = (): string => canonicalNumberText(value);
    if (node.minimum !== undefined && compare(value, node.minimum) < 0) walk.report("minimum", `expected at least ${number(node.minimum)}, got ${text()}`);
    if (node.exclusiveMinimum !== undefined && compare(value, node.exclusiveMinimum) <= 0) {
      walk.report("exclusiveMinimum", `expected more than ${number(node.exclusiveMinimum)}, got ${text()}`);
    }
    if (node.maximum !== undefined && compare(value, node.maximum) > 0) walk.report("maximum", `expected at most ${number(node.maximum)}, got ${text()}`);
    if (node.exclusiveMaximum !== undefined && compare(value, node.exclusiveMaximum) >= 0) {
      walk.report("exclusiveMaximum", `expected less than ${number(node.exclusiveMaximum)}, got ${text()}`);
    }
    if (node.multipleOf !== undefined && !isMultipleOf(value, node.multipleOf)) walk.report("multipleOf", `expected a multiple of ${number(node.multipleOf)}, got ${text()}`);
  }

  private checkArray(walk: Walk, value: readonly unknown[], node: SchemaNode): void {
    if (node.minItems !== undefined && value.length < node.minItems) walk.report("minItems", `expected at least ${items(node.minItems)}, got ${value.length}`);
    if (node.maxItems !== undefined && value.length > node.maxItems) walk.report("maxItems", `expected at most ${items(node.maxItems)}, got ${value.length}`);
    const prefix = node.prefixItems?.length ?? 0;
    if (node.items?.rejectsAll === true && value.length > prefix) walk.report("items", `expected at most ${items(prefix)}, got ${value.length}`);
    if (node.uniqueItems && value.length > 1) {
      const duplicate = firstDuplicate(value);
      if (duplicate !== undefined) walk.report("uniqueItems", `items ${duplicate[0]} and ${duplicate[1]} are equal, but the items must be unique`);
    }
  }

  private checkObject(walk: Walk, value: Record<string, unknown>, place: Place, node: SchemaNode): void {
    if (node.required !== undefined) {
      for (const name of node.required) {
        if (Object.hasOwn(value, name)) continue;
        const misspelt = this.unknownMembers(place, value).find((member) => closestName(member, place.knownNames!) === name);
        if (misspelt === undefined) walk.report("required", `'${name}' is required`, undefined, name);
        else walk.report("required", `'${name}' is required ('${misspelt}' looks like a misspelling of it)`, name, name);
      }
    }
    if (node.minProperties !== undefined || node.maxProperties !== undefined) {
      const size = Object.keys(value).length;
      if (node.minProperties !== undefined && size < node.minProperties) walk.report("minProperties", `expected at least ${members(node.minProperties)}, got ${size}`);
      if (node.maxProperties !== undefined && size > node.maxProperties) walk.report("maxProperties", `expected at most ${members(node.maxProperties)}, got ${size}`);
    }
  }

  /** Members of the object at a place that no node applied there names or matches by pattern. */
  private unknownMembers(place: Place, value: Record<string, unknown>): string[] {
    if (place.unknownMembers !== undefined) return place.unknownMembers;
    const known = new Set<string>();
    for (const node of place.applied) {
      if (node.properties !== undefined) for (const name of node.properties.keys()) known.add(name);
      if (node.required !== undefined) for (const name of node.required) known.add(name);
    }
    place.knownNames = known;
    place.unknownMembers = Object.keys(value).filter(
      (member) => !known.has(member) && !place.applied.some((node) => node.patternProperties?.some((entry) => entry.pattern.test(member)) === true),
    );
    return place.unknownMembers;
  }

  /** Whether the value at a place matches a branch of a union or `not`, checked on the side. */
  private matches(walk: Walk, place: Place, branch: SchemaNode): boolean {
    const trial = new Walk(1, walk.path, walk.active);
    this.validateAt(trial, place.value, [branch], place.depth);
    return trial.violations.length === 0;
  }

  private validateMembers(walk: Walk, value: Record<string, unknown>, place: Place): void {
    const applied = place.applied;
    if (!applied.some((node) => node.properties !== undefined || node.patternProperties !== undefined || node.additionalProperties !== undefined)) return;
    for (const member of Object.keys(value)) {
      if (walk.full) return;
      const memberNodes: SchemaNode[] = [];
      let closedBy: SchemaNode | undefined;
      for (const node of applied) {
        let named = false;
        const property = node.properties?.get(member);
        if (property !== undefined) {
          memberNodes.push(property);
          named = true;
        }
        if (node.patternProperties !== undefined) {
          for (const entry of node.patternProperties) {
            if (entry.pattern.test(member)) {
              memberNodes.push(entry.node);
              named = true;
            }
          }
        }
        if (!named && node.additionalProperties !== undefined) {
          if (node.additionalProperties.rejectsAll) closedBy ??= node;
          else memberNodes.push(node.additionalProperties);
        }
      }
      if (closedBy !== undefined) {
        walk.report("additionalProperties", `unknown member '${member}'`, closestName(member, closedBy.properties?.keys() ?? []), member);
      } else if (memberNodes.length > 0) {
        walk.path.push(member);
        this.validateAt(walk, value[member], memberNodes, place.depth + 1);
        walk.path.pop();
      }
    }
  }

  private validateItems(walk: Walk, value: readonly unknown[], place: Place): void {
    const applied = place.applied.filter((node) => node.prefixItems !== undefined || (node.items !== undefined && !node.items.rejectsAll));
    if (applied.length === 0) return;
    for (let index = 0; index < value.length; index++) {
      if (walk.full) return;
      const itemNodes: SchemaNode[] = [];
      for (const node of applied) {
        if (node.prefixItems !== undefined && index < node.prefixItems.length) itemNodes.push(node.prefixItems[index]!);
        else if (node.items !== undefined && !node.items.rejectsAll) itemNodes.push(node.items);
      }
      if (itemNodes.length === 0) continue;
      walk.path.push(index);
      this.validateAt(walk, value[index], itemNodes, place.depth + 1);
      walk.path.pop();
    }
  }
}

// ---- values ----

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A JSON object (not a list, not null, not an exact decimal number). */
function isObjectValue(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !isDecimal(value);
}

function isNumber(value: unknown): value is NumberValue {
  return typeof value === "number" || isDecimal(value);
}

function hasType(value: unknown, type: JsonType): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "number":
      return isNumber(value);
    case "integer":
      return typeof value === "number" ? Number.isInteger(value) : isDecimal(value) && value.isInteger();
    case "object":
      return isObjectValue(value);
    case "array":
      return Array.isArray(value);
    case "boolean":
      return typeof value === "boolean";
    case "null":
      return value === null;
  }
}

function finite(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

function count(value: unknown): number | undefined {
  return typeof value === "number" && value >= 0 ? value : undefined;
}

/** The index pair of the first item equal to an earlier one (numbers compare numerically, members in any order). */
function firstDuplicate(list: readonly unknown[]): [number, number] | undefined {
  const seen = new Map<string, number>();
  for (let index = 0; index < list.length; index++) {
    let key: string;
    try {
      key = canonicalJson(list[index] as Value);
    } catch {
      return undefined; // nested too deep to print: not judged
    }
    const first = seen.get(key);
    if (first !== undefined) return [first, index];
    seen.set(key, index);
  }
  return undefined;
}

/**
 * Whether a number is an exact multiple of a positive one, in decimal (0.3 is a multiple of 0.1):
 * both are written as integer coefficient times a power of ten and the division is done on
 * integers, so any magnitude is exact and the work stays small.
 */
function isMultipleOf(value: NumberValue, divisor: number): boolean {
  if (typeof value === "number" && Number.isSafeInteger(value) && Number.isSafeInteger(divisor)) return value % divisor === 0;
  const a = scientific(value);
  const b = scientific(divisor);
  if (a === undefined || b === undefined || b.coefficient === 0n) return true;
  if (a.coefficient === 0n) return true;
  const shift = a.exponent - b.exponent;
  // value / divisor = (a / b) * 10^shift
  if (shift >= 0) return ((a.coefficient % b.coefficient) * powerOfTenModulo(shift, b.coefficient)) % b.coefficient === 0n;
  // A coefficient of fewer digits than the shift cannot hold b * 10^-shift.
  if (-shift > a.digits) return false;
  return a.coefficient % (b.coefficient * 10n ** BigInt(-shift)) === 0n;
}

/** |x| as coefficient * 10^exponent with no trailing zeros in the coefficient. */
function scientific(x: NumberValue): { coefficient: bigint; exponent: number; digits: number } | undefined {
  const text = typeof x === "number" ? (Number.isFinite(x) ? x.toExponential() : "") : x.isFinite() ? x.toExponential() : "";
  const match = /^-?([0-9])(?:\.([0-9]+))?e([+-][0-9]+)$/.exec(text);
  if (match === null) return undefined;
  const fraction = match[2] ?? "";
  const all = match[1]! + fraction;
  const digits = all.replace(/0+$/, "") || "0";
  return { coefficient: BigInt(digits), exponent: Number(match[3]) - fraction.length + (all.length - digits.length), digits: digits.length };
}

function powerOfTenModulo(exponent: number, modulus: bigint): bigint {
  let result = 1n % modulus;
  let base = 10n % modulus;
  for (let e = exponent; e > 0; e = Math.floor(e / 2)) {
    if (e % 2 === 1) result = (result * base) % modulus;
    base = (base * base) % modulus;
  }
  return result;
}

// ---- formats ----

function formatNamed(name: string): Format | undefined {
  switch (name) {
    case "date":
      return { test: isDate, expected: "a valid date (YYYY-MM-DD)" };
    case "date-time":
      return { test: isDateTime, expected: "a valid date-time (RFC 3339, e.g. 2026-03-02T09:30:00Z)" };
    case "time":
      return { test: isTime, expected: "a valid time (RFC 3339, e.g. 09:30:00Z)" };
    case "email":
      return { test: isEmail, expected: "a valid email address" };
    case "uuid":
      return { test: (text) => UUID.test(text), expected: "a valid UUID" };
    case "uri":
      return { test: isAbsoluteUri, expected: "an absolute URI" };
    default:
      return undefined;
  }
}

const DATE = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/;
const TIME = /^([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.[0-9]+)?(?:[Zz]|([+-])([0-9]{2}):([0-9]{2}))$/;
const EMAIL_LOCAL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const HOST_NAME = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
const UUID = /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/;
const ABSOLUTE_URI = /^[A-Za-z][A-Za-z0-9+.-]*:(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?#[\]]|%[0-9A-Fa-f]{2})*$/;

/** RFC 3339 full-date: a real day of the proleptic Gregorian calendar. */
function isDate(text: string): boolean {
  const match = DATE.exec(text);
  if (match === null) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/** RFC 3339 full-time: with seconds and an offset; a leap second only at 23:59:60 UTC. */
function isTime(text: string): boolean {
  const match = TIME.exec(text);
  if (match === null) return false;
  const hour = Number(match[1]);
  const minute = Number(match[2]);
  const second = Number(match[3]);
  if (hour > 23 || minute > 59 || second > 60) return false;
  let offset = 0;
  if (match[4] !== undefined) {
    const offsetHours = Number(match[5]);
    const offsetMinutes = Number(match[6]);
    if (offsetHours > 23 || offsetMinutes > 59) return false;
    offset = (offsetHours * 60 + offsetMinutes) * (match[4] === "-" ? -1 : 1);
  }
  return second < 60 || (((hour * 60 + minute - offset) % 1440) + 1440) % 1440 === 23 * 60 + 59;
}

/** RFC 3339 date-time (`T` and `Z` in either case, as RFC 3339 allows). */
function isDateTime(text: string): boolean {
  return (text[10] === "T" || text[10] === "t") && isDate(text.slice(0, 10)) && isTime(text.slice(11));
}

/** An address as people type them: dot-atom local part, `@`, a host name of at least two labels. */
function isEmail(text: string): boolean {
  const at = text.lastIndexOf("@");
  if (at < 1 || text.length > 254 || at > 64) return false;
  return EMAIL_LOCAL.test(text.slice(0, at)) && HOST_NAME.test(text.slice(at + 1));
}

/** RFC 3986 URI with a scheme, of the characters a URI may hold, at most one fragment. */
function isAbsoluteUri(text: string): boolean {
  return ABSOLUTE_URI.test(text) && text.indexOf("#") === text.lastIndexOf("#");
}

function compilePattern(source: unknown): RegExp | undefined {
  if (typeof source !== "string") return undefined;
  try {
    return new RegExp(source, "u");
  } catch {
    return undefined;
  }
}

// ---- messages ----

const TYPE_NAMES: Record<JsonType, string> = {
  null: "null",
  boolean: "a boolean",
  object: "an object",
  array: "an array",
  number: "a number",
  integer: "an integer",
  string: "a string",
};
const SHOWN_LENGTH = 60;
const LISTED_VALUES = 12;

function typeMessage(types: readonly JsonType[], nullable: boolean, value: unknown): string {
  const expected = types.map((type) => TYPE_NAMES[type]);
  if (nullable && !types.includes("null")) expected.push("null");
  // A number with a fraction where only integers fit: the number says more than "a number".
  const got = isNumber(value) && types.includes("integer") && !types.includes("number") ? canonicalNumberText(value) : kindOf(value);
  return `expected ${alternatives(expected)}, got ${got}`;
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (isNumber(value)) return "a number";
  switch (typeof value) {
    case "string":
      return "a string";
    case "boolean":
      return "a boolean";
    case "object":
      return "an object";
    default:
      return typeof value;
  }
}

function alternatives(names: readonly string[]): string {
  return names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} or ${names[names.length - 1]}`;
}

/** A value in a sentence: strings quoted, long ones cut. */
function shown(value: unknown): string {
  if (typeof value === "string") return `'${cut(value)}'`;
  return bare(value);
}

/** A value in a list: strings as they are. */
function bare(value: unknown): string {
  if (typeof value === "string") return cut(value);
  if (isNumber(value)) return canonicalNumberText(value);
  try {
    return cut(JSON.stringify(value) ?? String(value));
  } catch {
    return kindOf(value);
  }
}

function cut(text: string): string {
  return text.length <= SHOWN_LENGTH ? text : `${text.slice(0, SHOWN_LENGTH)}…`;
}

function listed(values: readonly unknown[]): string {
  const shownValues = values.slice(0, LISTED_VALUES).map(bare).join(", ");
  return values.length <= LISTED_VALUES ? shownValues : `${shownValues}, … (${values.length} in all)`;
}

function number(value: number): string {
  return canonicalNumberText(value);
}

function plural(amount: number, one: string, many: string): string {
  return `${number(amount)} ${amount === 1 ? one : many}`;
}

function characters(amount: number): string {
  return plural(amount, "character", "characters");
}

function items(amount: number): string {
  return plural(amount, "item", "items");
}

function members(amount: number): string {
  return plural(amount, "member", "members");
}

function noneMatched(branches: number): string {
  return branches === 1 ? "does not match the allowed shape" : `matches none of the ${branches} allowed shapes`;
}

/** A JSON Pointer reference token: `~` as `~0`, `/` as `~1`. */
function escapeToken(token: string): string {
  return token.includes("~") || token.includes("/") ? token.replace(/~/g, "~0").replace(/\//g, "~1") : token;
}
