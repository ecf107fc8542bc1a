import type { Value } from "../value/value-kind.ts";
import { andBounds, type Bounds, exactly, NEVER, notBounds, orBounds, UNKNOWN } from "./condition-algebra.ts";

/**
 * What an expression is once everything but `data` is known:
 * - `known`: its value (or `error`: it fails whatever the data);
 * - `pointer`: the data at a pointer, read as evaluation reads it (null when it does not resolve);
 * - `truth`: a boolean that depends on the data: when it is true, when false; otherwise it fails;
 * - `opaque`: something the plan cannot follow (it may be anything, or fail).
 */
export type Residual =
  | { readonly kind: "known"; readonly value: Value }
  | { readonly kind: "error" }
  | { readonly kind: "pointer"; readonly pointer: string }
  | { readonly kind: "truth"; readonly whenTrue: Bounds; readonly whenFalse: Bounds }
  | { readonly kind: "opaque" };

export const OPAQUE: Residual = { kind: "opaque" };
export const FAILS: Residual = { kind: "error" };
export const known = (value: Value): Residual => ({ kind: "known", value });

/** A boolean residual; constant bounds fold back into a known value. */
export function truth(whenTrue: Bounds, whenFalse: Bounds): Residual {
  const constant = (bounds: Bounds, value: boolean): boolean => bounds.lower === value && bounds.upper === value;
  if (constant(whenTrue, true) && constant(whenFalse, false)) return known(true);
  if (constant(whenTrue, false) && constant(whenFalse, true)) return known(false);
  if (constant(whenTrue, false) && constant(whenFalse, false)) return FAILS;
  return { kind: "truth", whenTrue, whenFalse };
}

/** When a residual, used where a boolean must be, is true and when false (evaluation's expectBoolean). */
export function truthOf(residual: Residual): { whenTrue: Bounds; whenFalse: Bounds } {
  switch (residual.kind) {
    case "known":
      return typeof residual.value === "boolean"
        ? { whenTrue: exactly(residual.value), whenFalse: exactly(!residual.value) }
        : { whenTrue: NEVER, whenFalse: NEVER };
    case "error":
      return { whenTrue: NEVER, whenFalse: NEVER };
    case "pointer": {
      const { pointer } = residual;
      return {
        whenTrue: exactly({ op: "eq", left: { pointer }, right: { value: true } }),
        whenFalse: exactly({ op: "eq", left: { pointer }, right: { value: false } }),
      };
    }
    case "truth":
      return residual;
    case "opaque":
      return { whenTrue: UNKNOWN, whenFalse: UNKNOWN };
  }
}

/** When a boolean residual fails: neither true nor false. */
export function failsWhen(residual: Residual): Bounds {
  const { whenTrue, whenFalse } = truthOf(residual);
  return andBounds(notBounds(whenTrue), notBounds(whenFalse));
}

/** When evaluating a value residual fails (a pointer read never does). */
export function valueFailsWhen(residual: Residual): Bounds {
  switch (residual.kind) {
    case "known":
    case "pointer":
      return NEVER;
    case "error":
      return exactly(true);
    case "truth":
      return failsWhen(residual);
    case "opaque":
      return UNKNOWN;
  }
}

/** `and` of evaluation: left to right, stopping at the first false; a non-boolean fails. */
export function andOf(args: readonly Residual[]): Residual {
  const truths = args.map(truthOf);
  const whenFalse: Bounds[] = [];
  for (let i = 0; i < truths.length; i++)
    whenFalse.push(andBounds(...truths.slice(0, i).map((t) => t.whenTrue), truths[i]!.whenFalse));
  return truth(andBounds(...truths.map((t) => t.whenTrue)), orBounds(...whenFalse));
}

/** `or` of evaluation: left to right, stopping at the first true. */
export function orOf(args: readonly Residual[]): Residual {
  const truths = args.map(truthOf);
  const whenTrue: Bounds[] = [];
  for (let i = 0; i < truths.length; i++)
    whenTrue.push(andBounds(...truths.slice(0, i).map((t) => t.whenFalse), truths[i]!.whenTrue));
  return truth(orBounds(...whenTrue), andBounds(...truths.map((t) => t.whenFalse)));
}

export function notOf(arg: Residual): Residual {
  const { whenTrue, whenFalse } = truthOf(arg);
  return truth(whenFalse, whenTrue);
}

/** `if` whose branches are booleans (a branch that is not fails where it is taken). */
export function ifOf(condition: Residual, then: Residual, otherwise: Residual): Residual {
  const c = truthOf(condition);
  const a = truthOf(then);
  const b = truthOf(otherwise);
  return truth(
    orBounds(andBounds(c.whenTrue, a.whenTrue), andBounds(c.whenFalse, b.whenTrue)),
    orBounds(andBounds(c.whenTrue, a.whenFalse), andBounds(c.whenFalse, b.whenFalse)),
  );
}
