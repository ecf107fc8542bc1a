import { MAX_EXPRESSION_DEPTH, MAX_FUNCTION_CALL_DEPTH } from "../expression/expression-limits.ts";
import { callArguments, functionOf, operatorOf, variablePath } from "../expression/expression-shape.ts";
import { prepareExpression, type PrepareContext } from "../expression/prepare-expression.ts";
import type { Node } from "../expression/prepared-node.ts";
import { Scope } from "../expression/scope.ts";
import { isValueObject, type Value, type ValueObject } from "../value/value-kind.ts";
import { betweenOf, emptinessOf, equalityOf, existenceOf, membershipOf, orderingOf } from "./comparison-residuals.ts";
import { pointerOf } from "./data-pointer.ts";
import { andOf, FAILS, ifOf, known, notOf, OPAQUE, orOf, type Residual } from "./residual-value.ts";

/** What the roots other than `data` hold where an expression is worked out. */
export interface KnownRoots {
  readonly original: Value;
  readonly actor: Value;
  readonly ctx: Value;
  readonly params: Value;
}

/** The bindings of one place: a typed field's value and pointer, or a function's arguments. */
interface Bindings {
  /** `value` of a rule run per typed field: that field's data. */
  readonly value?: Residual;
  readonly field?: string;
  /** `arg` inside a function body being inlined. */
  readonly args?: Readonly<Record<string, Residual>>;
  readonly calls: number;
}

const TOP: Bindings = { calls: 0 };

/**
 * Partial evaluation of expressions (specification section 4) with `data` unknown: a part that
 * reads no data is evaluated by the engine itself, so it means exactly what evaluation makes of
 * it, errors included; a part that does becomes a residual (residual-value.ts). Operators the
 * condition tree can express are followed; any other over data is opaque.
 */
export class ResidualExpressions {
  private readonly dataReaders = new Map<string, boolean>();
  /** Whether an expression reads data where nothing is bound (a rule's expressions): asked at every node, so kept. */
  private readonly readsDataAtTop = new WeakMap<object, boolean>();
  /** Expressions that read no data, prepared once: the same ones are evaluated per rule, per typed field. */
  private readonly prepared = new WeakMap<object, Node>();
  /** Fields compute rules may have written: what is read there is no longer the row's data. */
  private readonly written: string[] = [];

  constructor(
    private readonly context: PrepareContext,
    private readonly roots: KnownRoots,
  ) {}

  /** Marks fields a compute rule may write: reads of them, above or below, are opaque from now on. */
  mayWrite(fields: readonly string[]): void {
    this.written.push(...fields);
  }

  private dataAt(pointer: string): Residual {
    const overlaps = (field: string): boolean =>
      field === pointer || field.startsWith(`${pointer}/`) || pointer.startsWith(`${field}/`) || pointer === "";
    return this.written.some(overlaps) ? OPAQUE : { kind: "pointer", pointer };
  }

  /** An expression of a rule, at its root; `field` binds `value` and `field` for a rule run per typed field. */
  of(expression: unknown, field?: string): Residual {
    if (deepest(expression, 1) > MAX_EXPRESSION_DEPTH) return this.evaluate(expression, TOP);
    const bindings: Bindings = field === undefined ? TOP : { value: this.dataAt(field), field, calls: 0 };
    return this.residual(expression, bindings);
  }

  private residual(expression: unknown, bindings: Bindings): Residual {
    if (!this.readsData(expression, bindings)) return this.evaluate(expression, bindings);
    const node = expression as ValueObject;
    const path = variablePath(node);
    if (path !== undefined) return this.variable(path, bindings);
    const args = callArguments(node)!;
    const fn = functionOf(node);
    if (fn !== undefined) return this.inlined(fn, args, bindings);
    const residuals = (): Residual[] => args.map((arg) => this.residual(arg, bindings));
    switch (operatorOf(node)) {
      case "and":
        return andOf(this.lazily(args, bindings, false));
      case "or":
        return orOf(this.lazily(args, bindings, true));
      case "not":
        return args.length === 1 ? notOf(this.residual(args[0], bindings)) : FAILS;
      case "if":
        return args.length === 3 ? this.choice(args, bindings) : FAILS;
      case "eq":
        return args.length === 2 ? equalityOf(...(residuals() as [Residual, Residual])) : FAILS;
      case "ne":
        return args.length === 2 ? notOf(equalityOf(...(residuals() as [Residual, Residual]))) : FAILS;
      case "lt":
      case "lte":
      case "gt":
      case "gte":
        return args.length === 2
          ? orderingOf(operatorOf(node) as "lt", ...(residuals() as [Residual, Residual]))
          : FAILS;
      case "between":
        return args.length === 3 ? betweenOf(...(residuals() as [Residual, Residual, Residual])) : FAILS;
      case "in":
        return args.length === 2 ? membershipOf(...(residuals() as [Residual, Residual])) : FAILS;
      case "exists":
        return args.length === 1 ? existenceOf(this.residual(args[0], bindings)) : FAILS;
      case "empty":
        return args.length === 1 ? emptinessOf(this.residual(args[0], bindings)) : FAILS;
      default:
        return OPAQUE;
    }
  }

  /**
   * The arguments of `and`/`or`, worked out while evaluation could still reach them: after a known
   * argument that decides (false for `and`, true for `or`) the rest is never evaluated.
   */
  private lazily(args: readonly Value[], bindings: Bindings, decides: boolean): Residual[] {
    const residuals: Residual[] = [];
    for (const arg of args) {
      const residual = this.residual(arg, bindings);
      residuals.push(residual);
      if (residual.kind === "known" && residual.value === decides) break;
      if (residual.kind === "known" && typeof residual.value !== "boolean") break;
      if (residual.kind === "error") break;
    }
    return residuals;
  }

  private choice(args: readonly Value[], bindings: Bindings): Residual {
    const condition = this.residual(args[0], bindings);
    if (condition.kind === "known")
      return typeof condition.value === "boolean" ? this.residual(args[condition.value ? 1 : 2], bindings) : FAILS;
    if (condition.kind === "error") return FAILS;
    const then = this.residual(args[1], bindings);
    const otherwise = this.residual(args[2], bindings);
    const boolean = (residual: Residual): boolean =>
      residual.kind === "truth" || (residual.kind === "known" && typeof residual.value === "boolean");
    // Branches that are not booleans are values the tree cannot hold.
    return boolean(then) && boolean(otherwise) ? ifOf(condition, then, otherwise) : OPAQUE;
  }

  private variable(path: string, bindings: Bindings): Residual {
    const [root = "", ...keys] = path.split(".");
    const below = (base: Residual | undefined): Residual => {
      if (base === undefined) return known(null);
      if (keys.length === 0) return base;
      return base.kind === "pointer" ? this.dataAt(base.pointer + pointerOf(keys)) : OPAQUE;
    };
    switch (root) {
      case "data":
        return this.dataAt(pointerOf(keys));
      case "value":
        return below(bindings.value);
      case "arg": {
        const [name, ...rest] = keys;
        const argument = name === undefined ? undefined : bindings.args?.[name];
        if (name === undefined || argument === undefined) return OPAQUE;
        if (rest.length === 0) return argument;
        return argument.kind === "pointer" ? this.dataAt(argument.pointer + pointerOf(rest)) : OPAQUE;
      }
      default:
        return OPAQUE;
    }
  }

  /** A call of a manifest function whose arguments or body read data: its body, with `arg` bound to the residuals. */
  private inlined(name: string, args: readonly Value[], bindings: Bindings): Residual {
    const fn = this.context.functions.get(name);
    if (fn === undefined || fn.params.length !== args.length) return FAILS;
    if (bindings.calls >= MAX_FUNCTION_CALL_DEPTH || bindings.calls >= 8) return OPAQUE;
    const bound: Record<string, Residual> = {};
    for (let i = 0; i < args.length; i++) {
      const residual = this.residual(args[i], bindings);
      // An argument that fails fails the call before its body runs.
      if (residual.kind === "error") return FAILS;
      bound[fn.params[i]!] = residual;
    }
    return this.residual(fn.bodyExpression as Value, { args: bound, calls: bindings.calls + 1 });
  }

  /** Whether evaluating the expression here would read data (directly, through a binding or a function body). */
  private readsData(expression: unknown, bindings: Bindings): boolean {
    if (!isValueObject(expression)) return false;
    if (bindings !== TOP) return this.readsDataWith(expression, bindings);
    let reads = this.readsDataAtTop.get(expression);
    if (reads === undefined) this.readsDataAtTop.set(expression, (reads = this.readsDataWith(expression, TOP)));
    return reads;
  }

  private readsDataWith(expression: ValueObject, bindings: Bindings): boolean {
    const path = variablePath(expression);
    if (path !== undefined) {
      const [root = "", name] = path.split(".");
      if (root === "data") return true;
      if (root === "value") return bindings.value !== undefined && bindings.value.kind !== "known";
      if (root === "arg" && bindings.args !== undefined)
        return name === undefined
          ? Object.values(bindings.args).some((arg) => arg.kind !== "known")
          : bindings.args[name] !== undefined && bindings.args[name]!.kind !== "known";
      return false;
    }
    const args = callArguments(expression);
    if (args === undefined) return false;
    if (args.some((arg) => this.readsData(arg, bindings))) return true;
    const fn = functionOf(expression);
    return fn !== undefined && this.bodyReadsData(fn, new Set());
  }

  private bodyReadsData(name: string, seen: Set<string>): boolean {
    const cached = this.dataReaders.get(name);
    if (cached !== undefined) return cached;
    const fn = this.context.functions.get(name);
    if (fn === undefined || seen.has(name)) return false;
    seen.add(name);
    const reads = (expression: unknown): boolean => {
      if (!isValueObject(expression)) return false;
      const path = variablePath(expression);
      if (path !== undefined) return path === "data" || path.startsWith("data.");
      const args = callArguments(expression);
      if (args === undefined) return false;
      if (args.some(reads)) return true;
      const called = functionOf(expression);
      return called !== undefined && this.bodyReadsData(called, seen);
    };
    const result = reads(fn.bodyExpression);
    if (seen.size === 1) this.dataReaders.set(name, result);
    return result;
  }

  /** An expression that reads no data, evaluated as evaluation would. */
  private evaluate(expression: unknown, bindings: Bindings): Residual {
    const args: ValueObject = {};
    for (const [name, residual] of Object.entries(bindings.args ?? {}))
      if (residual.kind === "known") args[name] = residual.value;
    const { original, actor, ctx, params } = this.roots;
    const scope = new Scope(
      null,
      original,
      actor,
      ctx,
      params,
      null,
      bindings.value?.kind === "known" ? bindings.value.value : null,
      bindings.field ?? null,
      bindings.args === undefined ? null : args,
      bindings.calls,
    );
    try {
      return known(this.preparedNode(expression)(scope, 0));
    } catch {
      return FAILS;
    }
  }

  private preparedNode(expression: unknown): Node {
    if (!isValueObject(expression)) return prepareExpression(expression, this.context);
    let node = this.prepared.get(expression);
    if (node === undefined) this.prepared.set(expression, (node = prepareExpression(expression, this.context)));
    return node;
  }
}

/** The depth of an expression's deepest node, as far as the limit. */
function deepest(expression: unknown, depth: number): number {
  if (depth > MAX_EXPRESSION_DEPTH || !isValueObject(expression)) return depth;
  const args = callArguments(expression);
  if (args === undefined) return depth;
  let most = depth;
  for (const arg of args) most = Math.max(most, deepest(arg, depth + 1));
  return most;
}
