import type { Value } from "../value/value-kind.ts";

/**
 * What an expression can see (the roots of specification section 4). One object per evaluation;
 * collection operators rebind `item` in place and restore it, function calls get a scope of their own.
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

  /** The scope calls from this one run in (forFunctionBody), made on the first call. */
  private callee: Scope | undefined = undefined;

  /**
   * The scope of a function body called from this one: lexical, so the caller's item, value, field
   * and arg are gone. A body runs to completion before anything else is evaluated here (its
   * arguments already were), so one scope per call depth serves every call made from this scope.
   */
  forFunctionBody(args: Value): Scope {
    const callee = (this.callee ??= new Scope(
      this.data,
      this.original,
      this.actor,
      this.ctx,
      this.params,
      null,
      null,
      null,
      null,
      this.calls + 1,
    ));
    callee.data = this.data;
    // Operators restore what they rebind, so these are null already; reset anyway, so that reusing
    // the scope does not depend on every operator doing so.
    callee.item = null;
    callee.value = null;
    callee.field = null;
    callee.arg = args;
    return callee;
  }
}

/** The root names of specification section 4; any other root reads as null. */
export type RootName = "data" | "original" | "actor" | "ctx" | "params" | "item" | "value" | "field" | "arg";
export const ROOT_NAMES: readonly RootName[] = [
  "data",
  "original",
  "actor",
  "ctx",
  "params",
  "item",
  "value",
  "field",
  "arg",
];

export function isRootName(name: string): name is RootName {
  return (ROOT_NAMES as readonly string[]).includes(name);
}
