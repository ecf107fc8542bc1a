import type { Value } from "../value/value-kind.ts";

/**
 * What an expression can see (the roots of specification section 4). One object per evaluation;
 * collection operators rebind `item` in place and restore it, function calls get a fresh scope.
 */
export class Scope {
  constructor(
    public data: Value,
    public original: Value,
    public actor: Value,
    public ctx: Value,
    public params: Value,
    public item: Value = null,
    public value: Value = null,
    public field: Value = null,
    public arg: Value = null,
    /** How many function calls enclose the expression being evaluated (specification 4.5). */
    public calls = 0,
  ) {}

  /** The scope of a function body: lexical, so the caller's item, value, field and arg are gone. */
  forFunctionBody(args: Value): Scope {
    return new Scope(this.data, this.original, this.actor, this.ctx, this.params, null, null, null, args, this.calls + 1);
  }
}

/** The root names of specification section 4; any other root reads as null. */
export type RootName = "data" | "original" | "actor" | "ctx" | "params" | "item" | "value" | "field" | "arg";
export const ROOT_NAMES: readonly RootName[] = ["data", "original", "actor", "ctx", "params", "item", "value", "field", "arg"];

export function isRootName(name: string): name is RootName {
  return (ROOT_NAMES as readonly string[]).includes(name);
}
