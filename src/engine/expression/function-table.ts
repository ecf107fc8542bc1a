import { isValueObject, type Value } from "../value/value-kind.ts";
import type { Node } from "./prepared-node.ts";

/**
 * The functions of a manifest (specification 4.5), name to `{params, body}`. An evaluation plan
 * prepares every body when it is built, a table used alone on a body's first call; either way
 * each body once, by itself, so functions that call each other (even recursively, which only the
 * call depth limit stops at evaluation time) never loop while preparing.
 */
export interface PreparedFunction {
  readonly name: string;
  readonly params: readonly string[];
  readonly bodyExpression: unknown;
  /** The body without depth checks, for calls where no node of it can be too deep. */
  body: Node | undefined;
  /** The body with a depth check at every node, for calls so deep that one of its nodes may be. */
  checkedBody: Node | undefined;
  /** The depth of the body's deepest node below its root (the root is 1), or more. */
  deepestNode: number | undefined;
}

export class FunctionTable {
  private readonly functions = new Map<string, PreparedFunction>();

  constructor(table: unknown) {
    if (!isValueObject(table)) return;
    for (const [name, definition] of Object.entries(table)) {
      const parsed = readFunction(name, definition);
      if (parsed) this.functions.set(name, parsed);
    }
  }

  /** Every function of the table. */
  entries(): IterableIterator<PreparedFunction> {
    return this.functions.values();
  }

  /** The function, or undefined when the name is not a function of this table. */
  get(name: string): PreparedFunction | undefined {
    return this.functions.get(name);
  }
}

export const EMPTY_FUNCTION_TABLE = new FunctionTable(null);

/** A function entry is an object with a list of parameter names and a body. */
function readFunction(name: string, definition: Value): PreparedFunction | undefined {
  if (!isValueObject(definition) || !Array.isArray(definition.params) || !Object.hasOwn(definition, "body"))
    return undefined;
  const params = definition.params.map((param) => (typeof param === "string" ? param : ""));
  return {
    name,
    params,
    bodyExpression: definition.body,
    body: undefined,
    checkedBody: undefined,
    deepestNode: undefined,
  };
}
