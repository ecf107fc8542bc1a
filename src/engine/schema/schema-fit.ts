import { isNumberValue, isValueObject } from "../value/value-kind.ts";
import { generatedSchemaFit, type GeneratedFit } from "./generated-schema-fit.ts";
import { hasType, type JsonType } from "./json-type.ts";
import { checksOnlyType, MAX_DEPTH, numberCheck, stringCheck, UNDECIDED, valueCheck } from "./schema-keyword-checks.ts";
import { ANYTHING, type SchemaNode } from "./schema-graph.ts";

/**
 * Whether a value fits a schema with no violation at all: the question most requests ask, since
 * most fit. Each schema node is compiled, on first use, to one function that checks only the
 * keywords the node has and allocates nothing; the walk of schema-validator.ts then runs only for
 * values that do not fit, to say where and why.
 *
 * It answers as the walk would: with `$ref` and `allOf` alone, the walk's answer is every node
 * that applies at a place fitting on its own (a node met again at the same place adds nothing).
 * Where that is not so, or where the answer costs more than a check should, it answers nothing and
 * the walk decides: `anyOf`, `oneOf` and `not` (checked on the side, sharing the walk's cycle
 * state), `uniqueItems` over two items or more, a chain of `$ref`s and `allOf`s at one place
 * longer than MAX_STEPS (a cycle), and a check of more than MAX_WORK nodes.
 *
 * Where the platform allows it, a schema is answered by the one function generated-schema-fit.ts
 * writes for it, which answers as these closures do at a fraction of their cost; the closures
 * answer the schemas it declines and hosts that forbid generated code.
 */

/** `$ref`s and `allOf` parts followed at one place before the walk is left to decide. */
const MAX_STEPS = 32;
/** Nodes checked in one call before the walk is left to decide (a schema whose `allOf`s fan out). */
const MAX_WORK = 100_000;

type Fit = (value: unknown, depth: number, steps: number) => boolean;

/** A node's compiled check, filled on first use (nodes refer to each other, also in cycles). */
interface Compiled {
  fit: Fit;
  /** Set once compiled, for a node that checks its type and nothing else: its member is checked in place, without a call. */
  types: readonly JsonType[] | undefined;
  nullable: boolean;
}

// The engine's cached own-member test: faster than Object.hasOwn for the same answer.
const hasOwnMember = Object.prototype.hasOwnProperty;

const always: Fit = () => true;
const never: Fit = () => false;
const undecided: Fit = () => {
  throw UNDECIDED;
};

export class SchemaFit {
  private readonly compiled = new Map<SchemaNode, Compiled>();
  /** Nodes left to check in the current call. */
  private work = 0;
  /** The generated function of each root asked about; null where there is none. */
  private readonly generated = new Map<SchemaNode, GeneratedFit | null>();

  constructor(
    private readonly definitions: ReadonlyMap<string, SchemaNode>,
    private readonly codeGeneration = true,
  ) {}

  /** True when the value has no violation, false when it has one, undefined when only the walk can tell. */
  fits(root: SchemaNode, value: unknown): boolean | undefined {
    const generated = this.generatedFit(root);
    try {
      if (generated !== null) return generated(value);
      this.work = MAX_WORK;
      return this.of(root).fit(value, 0, MAX_STEPS);
    } catch (error) {
      if (error === UNDECIDED) return undefined;
      throw error;
    }
  }

  private generatedFit(root: SchemaNode): GeneratedFit | null {
    let generated = this.generated.get(root);
    if (generated === undefined) {
      generated = (this.codeGeneration ? generatedSchemaFit(root, this.definitions) : undefined) ?? null;
      this.generated.set(root, generated);
    }
    return generated;
  }

  private of(node: SchemaNode): Compiled {
    let compiled = this.compiled.get(node);
    if (compiled === undefined) {
      const lazy: Compiled = {
        fit: (value, depth, steps) => {
          lazy.fit = this.compile(node, lazy);
          return lazy.fit(value, depth, steps);
        },
        types: undefined,
        nullable: false,
      };
      this.compiled.set(node, (compiled = lazy));
    }
    return compiled;
  }

  private compile(node: SchemaNode, cell: Compiled): Fit {
    if (node === ANYTHING) return always;
    if (node.rejectsAll) return never;
    if (node.anyOf !== undefined || node.oneOf !== undefined || node.not !== undefined) return undecided;
    const { types, nullable } = node;
    const target = node.ref === undefined ? undefined : this.definitions.get(node.ref);
    const parts = [
      ...(target === undefined ? [] : [this.of(target)]),
      ...(node.allOf ?? []).map((part) => this.of(part)),
    ];
    const ownValue = valueCheck(node);
    const string = stringCheck(node);
    const numeric = numberCheck(node);
    const list = this.arrayCheck(node);
    const object = this.objectCheck(node);
    if (checksOnlyType(node)) {
      cell.types = types;
      cell.nullable = nullable;
    }
    return (value, depth, steps) => {
      if (depth > MAX_DEPTH) return true;
      if (--this.work < 0) throw UNDECIDED;
      // As the walk enters a node: null for a nullable one, then the type, before anything else.
      if (nullable && value === null) return true;
      if (types !== undefined && !fitsTypes(value, types)) return false;
      if (parts.length > 0) {
        if (steps === 0) throw UNDECIDED;
        for (let i = 0; i < parts.length; i++) if (!parts[i]!.fit(value, depth, steps - 1)) return false;
      }
      if (ownValue !== undefined && !ownValue(value)) return false;
      if (typeof value === "string") return string === undefined || string(value);
      if (isNumberValue(value)) return numeric === undefined || numeric(value);
      if (Array.isArray(value)) return list === undefined || list(value, depth);
      if (isValueObject(value)) return object === undefined || object(value, depth);
      return true;
    };
  }

  /** `minItems`, `maxItems`, `items: false` past the prefix, then each item against `prefixItems` or `items`. */
  private arrayCheck(node: SchemaNode): ((list: readonly unknown[], depth: number) => boolean) | undefined {
    const { minItems, maxItems, uniqueItems } = node;
    const prefix = node.prefixItems?.map((item) => this.of(item));
    const rest = node.items === undefined || node.items.rejectsAll ? undefined : this.of(node.items);
    const closed = node.items?.rejectsAll === true;
    if (
      minItems === undefined &&
      maxItems === undefined &&
      !uniqueItems &&
      prefix === undefined &&
      rest === undefined &&
      !closed
    )
      return undefined;
    const prefixLength = prefix?.length ?? 0;
    return (list, depth) => {
      if (minItems !== undefined && list.length < minItems) return false;
      if (maxItems !== undefined && list.length > maxItems) return false;
      if (closed && list.length > prefixLength) return false;
      if (uniqueItems && list.length > 1) throw UNDECIDED;
      for (let index = 0; index < list.length; index++) {
        const item = index < prefixLength ? prefix![index]! : rest;
        if (item !== undefined && !fitsMember(item, list[index], depth + 1)) return false;
      }
      return true;
    };
  }

  /** `required`, `minProperties`, `maxProperties`, then each member against what names it, or what takes the others. */
  private objectCheck(node: SchemaNode): ((object: Record<string, unknown>, depth: number) => boolean) | undefined {
    const { required, minProperties, maxProperties } = node;
    // A dictionary without prototype: reading a member name from it is cheaper than from a Map.
    let properties: Record<string, Compiled | undefined> | undefined;
    if (node.properties !== undefined) {
      properties = Object.create(null) as Record<string, Compiled | undefined>;
      for (const [name, property] of node.properties) properties[name] = this.of(property);
    }
    const patterns = node.patternProperties?.map(({ pattern, node: member }) => ({ pattern, member: this.of(member) }));
    const others = node.additionalProperties;
    const closed = others?.rejectsAll === true;
    const other = others === undefined || closed ? undefined : this.of(others);
    const members = properties !== undefined || patterns !== undefined || others !== undefined;
    if (required === undefined && minProperties === undefined && maxProperties === undefined && !members)
      return undefined;
    return (object, depth) => {
      if (required !== undefined)
        for (let i = 0; i < required.length; i++) if (!hasOwnMember.call(object, required[i]!)) return false;
      if (minProperties !== undefined || maxProperties !== undefined) {
        let size = 0;
        for (const name in object) if (Object.hasOwn(object, name)) size++;
        if (minProperties !== undefined && size < minProperties) return false;
        if (maxProperties !== undefined && size > maxProperties) return false;
      }
      if (!members) return true;
      // for-in allocates no array of names (Object.keys does); values from JSON have no inherited members.
      for (const name in object) {
        if (!hasOwnMember.call(object, name)) continue;
        let named = false;
        const property = properties?.[name];
        if (property !== undefined) {
          if (!fitsMember(property, object[name], depth + 1)) return false;
          named = true;
        }
        if (patterns !== undefined) {
          for (let i = 0; i < patterns.length; i++) {
            if (!patterns[i]!.pattern.test(name)) continue;
            if (!fitsMember(patterns[i]!.member, object[name], depth + 1)) return false;
            named = true;
          }
        }
        if (!named && closed) return false;
        if (!named && other !== undefined && !fitsMember(other, object[name], depth + 1)) return false;
      }
      return true;
    };
  }
}

/** A member or item against a compiled node: a node that checks only its type is checked here, without a call. */
function fitsMember(compiled: Compiled, value: unknown, depth: number): boolean {
  const types = compiled.types;
  if (types === undefined) return compiled.fit(value, depth, MAX_STEPS);
  return depth > MAX_DEPTH || (compiled.nullable && value === null) || fitsTypes(value, types);
}

function fitsTypes(value: unknown, types: readonly JsonType[]): boolean {
  for (let i = 0; i < types.length; i++) if (hasType(value, types[i]!)) return true;
  return false;
}
