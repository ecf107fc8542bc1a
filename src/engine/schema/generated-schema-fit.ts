import { isDecimal } from "../number/decimal.ts";
import { codePointLength } from "../value/code-points.ts";
import { compiledFactory } from "../expression/generated-code.ts";
import type { JsonType } from "./json-type.ts";
import { checksOnlyType, MAX_DEPTH, numberCheck, UNDECIDED, valueCheck } from "./schema-keyword-checks.ts";
import { ANYTHING, type SchemaNode } from "./schema-graph.ts";

/**
 * SchemaFit's question (no violation at all?) compiled to one JavaScript function per schema
 * root: each node becomes a function that checks only its keywords, member names are a `switch`,
 * and a member whose schema only names types is checked in line. Every request under schema
 * enforcement `warn` asks it, so it has to cost next to nothing beside the evaluation.
 *
 * It answers exactly as SchemaFit's closures do, and where they leave the answer to the walk
 * (`anyOf`, `oneOf`, `not`, `uniqueItems` over two items) it throws UNDECIDED likewise. Their
 * guards against runaway schemas are settled here before any code is written: a chain of `$ref`s
 * and `allOf`s that comes back to a node at the same place, more than MAX_PLACE_CHECKS nodes at
 * one place, or more than MAX_NODES nodes in all, and no function is made (the closures answer).
 */
export type GeneratedFit = (value: unknown) => boolean;

/** Nodes one place of a value may be checked against (`$ref`s and `allOf`s followed), at most. */
const MAX_PLACE_CHECKS = 256;
/** Nodes of one schema compiled to code, at most: larger schemas keep the closures. */
const MAX_NODES = 2000;

const PARAMETERS = ["hasOwn", "isDecimal", "codePointLength", "undecided", "C"] as const;

const undecided = (): never => {
  throw UNDECIDED;
};

/** The function for `root`, or undefined where the schema is one the closures must answer (or the platform refuses generated code). */
export function generatedSchemaFit(
  root: SchemaNode,
  definitions: ReadonlyMap<string, SchemaNode>,
): GeneratedFit | undefined {
  const writer = new FitWriter(definitions);
  const body = writer.program(root);
  if (body === undefined) return undefined;
  // The body is determined by the schema's shape; the constants (patterns, formats, enums) by the schema itself.
  const factory = compiledFactory(`schema-fit:${body}`, PARAMETERS, () => body);
  if (factory === undefined) return undefined;
  return factory(
    Object.prototype.hasOwnProperty,
    isDecimal,
    codePointLength,
    undecided,
    writer.constants,
  ) as GeneratedFit;
}

class FitWriter {
  readonly constants: unknown[] = [];
  private readonly names = new Map<SchemaNode, string>();
  private readonly queue: SchemaNode[] = [];
  /** Nodes checked at one place when a node is entered (itself, its `$ref` and its `allOf`s, transitively). */
  private readonly placeChecks = new Map<SchemaNode, number>();

  constructor(private readonly definitions: ReadonlyMap<string, SchemaNode>) {}

  /** The factory's body: every node's function, then the root's returned; undefined when the closures must answer. */
  program(root: SchemaNode): string | undefined {
    const rootName = this.nameOf(root);
    const functions: string[] = [];
    for (let next = 0; next < this.queue.length; next++) {
      if (this.queue.length > MAX_NODES) return undefined;
      const node = this.queue[next]!;
      if (this.parts(node).length > 0 && this.checksAtOnePlace(node, new Set()) > MAX_PLACE_CHECKS) return undefined;
      functions.push(`function ${this.names.get(node)}(v, d) {\n${this.nodeBody(node)}\n}`);
    }
    return `"use strict";\n${functions.join("\n")}\nreturn (v) => ${rootName}(v, 0);`;
  }

  private nameOf(node: SchemaNode): string {
    let name = this.names.get(node);
    if (name === undefined) {
      name = `f${this.names.size}`;
      this.names.set(node, name);
      this.queue.push(node);
    }
    return name;
  }

  private constant(value: unknown): string {
    this.constants.push(value);
    return `C[${this.constants.length - 1}]`;
  }

  /** The nodes that apply at the same place as this one: its `$ref`'s target and its `allOf`s. */
  private parts(node: SchemaNode): SchemaNode[] {
    const target = node.ref === undefined ? undefined : this.definitions.get(node.ref);
    return [...(target === undefined ? [] : [target]), ...(node.allOf ?? [])];
  }

  /** How many node checks entering `node` takes at one place; Infinity for a chain that comes back to itself. */
  private checksAtOnePlace(node: SchemaNode, path: Set<SchemaNode>): number {
    const known = this.placeChecks.get(node);
    if (known !== undefined) return known;
    if (path.has(node)) return Number.POSITIVE_INFINITY;
    path.add(node);
    let checks = 1;
    for (const part of this.parts(node)) {
      checks += this.checksAtOnePlace(part, path);
      if (checks > MAX_PLACE_CHECKS) break;
    }
    path.delete(node);
    this.placeChecks.set(node, checks);
    return checks;
  }

  private nodeBody(node: SchemaNode): string {
    // In the closures' order: anything, nothing, then what only the walk decides.
    if (node === ANYTHING) return "return true;";
    if (node.rejectsAll) return "return false;";
    if (node.anyOf !== undefined || node.oneOf !== undefined || node.not !== undefined) return "return undecided();";
    const lines = [`if (d > ${MAX_DEPTH}) return true;`];
    if (node.nullable) lines.push("if (v === null) return true;");
    if (node.types !== undefined) lines.push(`if (!(${typeTest("v", node.types)})) return false;`);
    for (const part of this.parts(node)) lines.push(`if (!${this.nameOf(part)}(v, d)) return false;`);
    const ownValue = valueCheck(node);
    if (ownValue !== undefined) lines.push(`if (!${this.constant(ownValue)}(v)) return false;`);
    const kinds = possibleKinds(node.types);
    const sections = [
      ["string", this.stringSection(node)],
      ["number", this.numberSection(node)],
      ["array", this.arraySection(node)],
      ["object", this.objectSection(node)],
    ] as const;
    const present = sections.filter(([kind, section]) => section !== undefined && kinds.has(kind));
    if (present.length === 1 && kinds.size === 1) lines.push(present[0]![1]!);
    else for (const [kind, section] of present) lines.push(`if (${KIND_TESTS[kind]("v")}) {\n${section}\n}`);
    lines.push("return true;");
    return lines.join("\n");
  }

  private stringSection(node: SchemaNode): string | undefined {
    const { format, minLength, maxLength, pattern } = node;
    const lines: string[] = [];
    if (format !== undefined) lines.push(`if (!${this.constant(format.test)}(v)) return false;`);
    if (minLength !== undefined || maxLength !== undefined) {
      lines.push("const n = codePointLength(v);");
      if (minLength !== undefined) lines.push(`if (n < ${minLength}) return false;`);
      if (maxLength !== undefined) lines.push(`if (n > ${maxLength}) return false;`);
    }
    if (pattern !== undefined) lines.push(`if (!${this.constant(pattern)}.test(v)) return false;`);
    return lines.length === 0 ? undefined : lines.join("\n");
  }

  /** Bounds compared in line for a plain number; a decimal, and `multipleOf`, through the closures' check. */
  private numberSection(node: SchemaNode): string | undefined {
    const check = numberCheck(node);
    if (check === undefined) return undefined;
    const { minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf } = node;
    const bounds = [
      minimum === undefined ? undefined : `v >= ${numberLiteral(minimum)}`,
      exclusiveMinimum === undefined ? undefined : `v > ${numberLiteral(exclusiveMinimum)}`,
      maximum === undefined ? undefined : `v <= ${numberLiteral(maximum)}`,
      exclusiveMaximum === undefined ? undefined : `v < ${numberLiteral(exclusiveMaximum)}`,
    ].filter((bound) => bound !== undefined);
    const checked = this.constant(check);
    if (multipleOf !== undefined || bounds.length === 0) return `if (!${checked}(v)) return false;`;
    return `if (typeof v === "number" ? !(${bounds.join(" && ")}) : !${checked}(v)) return false;`;
  }

  private arraySection(node: SchemaNode): string | undefined {
    const { minItems, maxItems, uniqueItems } = node;
    const prefix = node.prefixItems ?? [];
    const closed = node.items?.rejectsAll === true;
    const rest = node.items === undefined || closed ? undefined : node.items;
    const lines: string[] = [];
    if (minItems !== undefined) lines.push(`if (v.length < ${minItems}) return false;`);
    if (maxItems !== undefined) lines.push(`if (v.length > ${maxItems}) return false;`);
    if (closed) lines.push(`if (v.length > ${prefix.length}) return false;`);
    if (uniqueItems) lines.push("if (v.length > 1) return undecided();");
    for (const [index, item] of prefix.entries()) {
      const check = this.memberCheck(item, `v[${index}]`);
      if (check !== undefined) lines.push(`if (v.length > ${index} && !(${check})) return false;`);
    }
    if (rest !== undefined) {
      const check = this.memberCheck(rest, "v[i]");
      if (check !== undefined)
        lines.push(`for (let i = ${prefix.length}; i < v.length; i++) if (!(${check})) return false;`);
    }
    return lines.length === 0 ? undefined : lines.join("\n");
  }

  private objectSection(node: SchemaNode): string | undefined {
    const { required, minProperties, maxProperties } = node;
    const lines: string[] = [];
    for (const name of required ?? []) lines.push(`if (!hasOwn.call(v, ${JSON.stringify(name)})) return false;`);
    if (minProperties !== undefined || maxProperties !== undefined) {
      lines.push("let size = 0;", "for (const k in v) if (hasOwn.call(v, k)) size++;");
      if (minProperties !== undefined) lines.push(`if (size < ${minProperties}) return false;`);
      if (maxProperties !== undefined) lines.push(`if (size > ${maxProperties}) return false;`);
    }
    const members = this.membersLoop(node);
    if (members !== undefined) lines.push(members);
    return lines.length === 0 ? undefined : lines.join("\n");
  }

  /** Each own member against the property that names it, the patterns that match it, or what takes the others. */
  private membersLoop(node: SchemaNode): string | undefined {
    const others = node.additionalProperties;
    const closed = others?.rejectsAll === true;
    const other = others === undefined || closed ? undefined : others;
    const cases: string[] = [];
    const tracksNamed = node.patternProperties !== undefined || others !== undefined;
    for (const [name, property] of node.properties ?? []) {
      const check = this.memberCheck(property, "m");
      // A named member is never another member, even when its schema constrains nothing.
      if (check === undefined && !tracksNamed) continue;
      const checked = check === undefined ? "" : `if (!(${check})) return false; `;
      cases.push(`case ${JSON.stringify(name)}: ${tracksNamed ? "named = true; " : ""}${checked}break;`);
    }
    const after: string[] = [];
    for (const { pattern, node: member } of node.patternProperties ?? []) {
      const check = this.memberCheck(member, "m");
      const checked = check === undefined ? "" : ` if (!(${check})) return false;`;
      after.push(`if (${this.constant(pattern)}.test(k)) { named = true;${checked} }`);
    }
    if (closed) after.push("if (!named) return false;");
    if (other !== undefined) {
      const check = this.memberCheck(other, "m");
      if (check !== undefined) after.push(`if (!named && !(${check})) return false;`);
    }
    if (cases.length === 0 && after.length === 0) return undefined;
    return [
      "for (const k in v) {",
      "if (!hasOwn.call(v, k)) continue;",
      "const m = v[k];",
      ...(tracksNamed ? ["let named = false;"] : []),
      ...(cases.length === 0 ? [] : ["switch (k) {", ...cases, "}"]),
      ...after,
      "}",
    ].join("\n");
  }

  /**
   * The test of a member or item `value` one level down, as an expression; undefined when it
   * constrains nothing. A node that only names types is tested in line, as the closures do.
   */
  private memberCheck(node: SchemaNode, value: string): string | undefined {
    if (node === ANYTHING) return undefined;
    if (checksOnlyType(node)) {
      const nullable = node.nullable ? `${value} === null || ` : "";
      return `d >= ${MAX_DEPTH} || ${nullable}${typeTest(value, node.types!)}`;
    }
    return `${this.nameOf(node)}(${value}, d + 1)`;
  }
}

/** The kinds of value keyword sections apply to; `other` (booleans, null) has none. */
type Kind = "string" | "number" | "array" | "object" | "other";

const KIND_TESTS: Record<Exclude<Kind, "other">, (value: string) => string> = {
  string: (value) => `typeof ${value} === "string"`,
  number: (value) => `(typeof ${value} === "number" || isDecimal(${value}))`,
  array: (value) => `Array.isArray(${value})`,
  object: (value) =>
    `(typeof ${value} === "object" && ${value} !== null && !Array.isArray(${value}) && !isDecimal(${value}))`,
};

const TYPE_TESTS: Record<JsonType, (value: string) => string> = {
  string: KIND_TESTS.string,
  number: KIND_TESTS.number,
  integer: (value) =>
    `(typeof ${value} === "number" ? Number.isInteger(${value}) : isDecimal(${value}) && ${value}.isInteger())`,
  object: KIND_TESTS.object,
  array: KIND_TESTS.array,
  boolean: (value) => `typeof ${value} === "boolean"`,
  null: (value) => `${value} === null`,
};

function typeTest(value: string, types: readonly JsonType[]): string {
  return types.map((type) => TYPE_TESTS[type](value)).join(" || ");
}

/** The kinds of value that reach a node's keyword sections: those its types allow, or all. */
function possibleKinds(types: readonly JsonType[] | undefined): ReadonlySet<Kind> {
  if (types === undefined) return new Set<Kind>(["string", "number", "array", "object", "other"]);
  const kinds = new Set<Kind>();
  for (const type of types) {
    if (type === "integer" || type === "number") kinds.add("number");
    else if (type === "boolean" || type === "null") kinds.add("other");
    else kinds.add(type);
  }
  return kinds;
}

/** A finite number as JavaScript reads it back exactly. */
function numberLiteral(value: number): string {
  return Object.is(value, -0) ? "-0" : String(value);
}
