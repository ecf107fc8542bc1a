import { closestName } from "../names/closest-name.ts";
import { MAX_DEPTH } from "./schema-keyword-checks.ts";
import { compare } from "../number/arithmetic.ts";
import { canonicalNumberText } from "../number/canonical-number.ts";
import type { NumberValue } from "../number/decimal.ts";
import { canonicalJson } from "../value/canonical-json.ts";
import { codePointLength } from "../value/code-points.ts";
import type { JsonValue } from "../value/json-value.ts";
import { valuesEqual } from "../value/value-equality.ts";
import type { EmbeddedSchema, SchemaViolation } from "./entity-schema.ts";
import { escapePointerToken } from "../value/json-pointer-token.ts";
import { isNumberValue, isValueObject, type Value } from "../value/value-kind.ts";
import { isMultipleOf } from "./decimal-multiple.ts";
import { hasType } from "./json-type.ts";
import { ANYTHING, SchemaGraph, type SchemaNode } from "./schema-graph.ts";
import { SchemaFit } from "./schema-fit.ts";
import { characters, items, listed, members, noneMatched, number, shown, typeMessage } from "./violation-messages.ts";

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

/** Ids of (node, depth) pairs in the set of nodes being applied: depth fits below this. */
const DEPTH_SPAN = 1024;
const DEFAULT_LIMIT = 50;

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
    for (const token of this.path) pointer += `/${escapePointerToken(String(token))}`;
    if (member !== undefined) pointer += `/${escapePointerToken(member)}`;
    this.violations.push(
      didYouMean === undefined ? { pointer, keyword, message } : { pointer, keyword, message, didYouMean },
    );
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
  private readonly definitions: ReadonlyMap<string, SchemaNode>;

  /** Whether a value fits at all, without saying why not: most values do, and the walk is for those that do not. */
  private readonly fit: SchemaFit;

  /** `codeGeneration` false keeps the quick check to closures (a host that forbids `eval`), with the same answers. */
  constructor(embedded: EmbeddedSchema, codeGeneration = true) {
    const graph = new SchemaGraph(embedded);
    this.root = graph.root;
    this.definitions = graph.definitions;
    this.fit = new SchemaFit(graph.definitions, codeGeneration);
  }

  /** Every violation, in document order of the value, at most `limit` (default 50). Never throws on any JSON value. */
  validate(value: JsonValue, limit: number = DEFAULT_LIMIT): SchemaViolation[] {
    const most = Number.isNaN(limit) ? DEFAULT_LIMIT : Math.floor(limit);
    if (!(most > 0)) return [];
    if (this.fit.fits(this.root, value) === true) return [];
    return this.walk(value, most);
  }

  /** What `validate` does for a value that does not fit: the walk, which says where and why (also for tests of SchemaFit). */
  walk(value: JsonValue, limit: number): SchemaViolation[] {
    const walk = new Walk(limit, [], new Set());
    this.validateAt(walk, value, [this.root], 0);
    return walk.violations;
  }

  /** Whether a value fits with no violation, without the walk; undefined where only the walk can tell (SchemaFit). */
  fits(value: JsonValue): boolean | undefined {
    return this.fit.fits(this.root, value);
  }

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
      else if (isValueObject(value)) this.validateMembers(walk, value, place);
    }
    if (place.entered !== undefined) for (const key of place.entered) walk.active.delete(key);
  }

  /** Adds a node and what it brings along (`$ref`, `allOf`) to the nodes applied at a place, when its type fits. */
  private enter(walk: Walk, place: Place, node: SchemaNode, viaRef: boolean): void {
    if (node === ANYTHING) return;
    // Only a `$ref` target or a node that composes others (allOf, anyOf, oneOf, not) can lead back to
    // itself without going deeper into the value, so only those are tracked.
    if (
      viaRef ||
      node.allOf !== undefined ||
      node.anyOf !== undefined ||
      node.oneOf !== undefined ||
      node.not !== undefined
    ) {
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
      const names =
        typeof value === "string"
          ? node.enumValues.filter((allowed): allowed is string => typeof allowed === "string")
          : [];
      walk.report(
        "enum",
        `${shown(value)} is not one of ${listed(node.enumValues)}`,
        typeof value === "string" ? closestName(value, names) : undefined,
      );
    }
    if (typeof value === "string") this.checkString(walk, value, node);
    else if (isNumberValue(value)) this.checkNumber(walk, value, node);
    else if (Array.isArray(value)) this.checkArray(walk, value, node);
    else if (isValueObject(value)) this.checkObject(walk, value, place, node);
    if (node.anyOf !== undefined && !walk.full && !node.anyOf.some((branch) => this.matches(walk, place, branch))) {
      walk.report("anyOf", noneMatched(node.anyOf.length));
    }
    if (node.oneOf !== undefined && !walk.full) {
      let matching = 0;
      for (const branch of node.oneOf) if (this.matches(walk, place, branch) && ++matching > 1) break;
      if (matching === 0) walk.report("oneOf", noneMatched(node.oneOf.length));
      else if (matching > 1)
        walk.report(
          "oneOf",
          `matches more than one of the ${node.oneOf.length} allowed shapes, but must match exactly one`,
        );
    }
    if (node.not !== undefined && !walk.full && this.matches(walk, place, node.not))
      walk.report("not", "matches a shape that is not allowed here");
  }

  private checkString(walk: Walk, value: string, node: SchemaNode): void {
    if (node.format !== undefined && !node.format.test(value))
      walk.report("format", `${shown(value)} is not ${node.format.expected}`);
    if (node.minLength !== undefined || node.maxLength !== undefined) {
      const length = codePointLength(value);
      if (node.minLength !== undefined && length < node.minLength)
        walk.report("minLength", `expected at least ${characters(node.minLength)}, got ${length}`);
      if (node.maxLength !== undefined && length > node.maxLength)
        walk.report("maxLength", `expected at most ${characters(node.maxLength)}, got ${length}`);
    }
    if (node.pattern !== undefined && !node.pattern.test(value))
      walk.report("pattern", `${shown(value)} does not match the pattern ${node.pattern.source}`);
  }

  private checkNumber(walk: Walk, value: NumberValue, node: SchemaNode): void {
    const text = (): string => canonicalNumberText(value);
    if (node.minimum !== undefined && compare(value, node.minimum) < 0)
      walk.report("minimum", `expected at least ${number(node.minimum)}, got ${text()}`);
    if (node.exclusiveMinimum !== undefined && compare(value, node.exclusiveMinimum) <= 0) {
      walk.report("exclusiveMinimum", `expected more than ${number(node.exclusiveMinimum)}, got ${text()}`);
    }
    if (node.maximum !== undefined && compare(value, node.maximum) > 0)
      walk.report("maximum", `expected at most ${number(node.maximum)}, got ${text()}`);
    if (node.exclusiveMaximum !== undefined && compare(value, node.exclusiveMaximum) >= 0) {
      walk.report("exclusiveMaximum", `expected less than ${number(node.exclusiveMaximum)}, got ${text()}`);
    }
    if (node.multipleOf !== undefined && !isMultipleOf(value, node.multipleOf))
      walk.report("multipleOf", `expected a multiple of ${number(node.multipleOf)}, got ${text()}`);
  }

  private checkArray(walk: Walk, value: readonly unknown[], node: SchemaNode): void {
    if (node.minItems !== undefined && value.length < node.minItems)
      walk.report("minItems", `expected at least ${items(node.minItems)}, got ${value.length}`);
    if (node.maxItems !== undefined && value.length > node.maxItems)
      walk.report("maxItems", `expected at most ${items(node.maxItems)}, got ${value.length}`);
    const prefix = node.prefixItems?.length ?? 0;
    if (node.items?.rejectsAll === true && value.length > prefix)
      walk.report("items", `expected at most ${items(prefix)}, got ${value.length}`);
    if (node.uniqueItems && value.length > 1) {
      const duplicate = firstDuplicate(value);
      if (duplicate !== undefined)
        walk.report("uniqueItems", `items ${duplicate[0]} and ${duplicate[1]} are equal, but the items must be unique`);
    }
  }

  private checkObject(walk: Walk, value: Record<string, unknown>, place: Place, node: SchemaNode): void {
    if (node.required !== undefined) {
      for (const name of node.required) {
        if (Object.hasOwn(value, name)) continue;
        const misspelt = this.unknownMembers(place, value).find(
          (member) => closestName(member, place.knownNames!) === name,
        );
        if (misspelt === undefined) walk.report("required", `'${name}' is required`, undefined, name);
        else
          walk.report("required", `'${name}' is required ('${misspelt}' looks like a misspelling of it)`, name, name);
      }
    }
    if (node.minProperties !== undefined || node.maxProperties !== undefined) {
      const size = Object.keys(value).length;
      if (node.minProperties !== undefined && size < node.minProperties)
        walk.report("minProperties", `expected at least ${members(node.minProperties)}, got ${size}`);
      if (node.maxProperties !== undefined && size > node.maxProperties)
        walk.report("maxProperties", `expected at most ${members(node.maxProperties)}, got ${size}`);
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
      (member) =>
        !known.has(member) &&
        !place.applied.some((node) => node.patternProperties?.some((entry) => entry.pattern.test(member)) === true),
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
    if (
      !applied.some(
        (node) =>
          node.properties !== undefined ||
          node.patternProperties !== undefined ||
          node.additionalProperties !== undefined,
      )
    )
      return;
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
        walk.report(
          "additionalProperties",
          `unknown member '${member}'`,
          closestName(member, closedBy.properties?.keys() ?? []),
          member,
        );
      } else if (memberNodes.length > 0) {
        walk.path.push(member);
        this.validateAt(walk, value[member], memberNodes, place.depth + 1);
        walk.path.pop();
      }
    }
  }

  private validateItems(walk: Walk, value: readonly unknown[], place: Place): void {
    const applied = place.applied.filter(
      (node) => node.prefixItems !== undefined || (node.items !== undefined && !node.items.rejectsAll),
    );
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
