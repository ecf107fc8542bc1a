import type { ScopeReader } from "../expression/generated-path-reader.ts";
import { isDecimal } from "../number/decimal.ts";
import type { Value } from "../value/value-kind.ts";
import type { IndexedLiteral } from "./leading-condition.ts";

/**
 * The rules whose `when` starts with `eq` of one variable and a literal, filed by the literal
 * (leading-condition.ts): the variable is read once and only the rules whose literal equals its
 * value can apply. The others are known not to apply, as their `when` would have said: the read
 * cannot fail, `eq` cannot fail, and a false first argument ends an `and`.
 *
 * Equality is the engine's (valuesEqual): a string, a boolean or null equals only itself, which is
 * what a Map lookup decides; a plain number equals the numbers of the same value (a Map treats 0
 * and -0 as one key, as `compare` does). Only a value a lookup cannot decide, an exact decimal
 * written by a compute rule or NaN (which `compare` finds equal to every number), leaves every rule
 * with a number literal to be evaluated.
 */
export class EqualityIndex {
  /** Rule positions (PreparedRule.position) by literal. */
  private readonly byLiteral = new Map<IndexedLiteral, number[]>();
  /** Every rule position filed, in filing order. */
  readonly positions: number[] = [];
  private readonly numberLiterals: number[] = [];
  constructor(
    readonly variable: string,
    /** The variable's reader, the one its expressions read it with. */
    readonly read: ScopeReader,
  ) {}

  file(position: number, literal: IndexedLiteral): void {
    this.positions.push(position);
    if (typeof literal === "number") this.numberLiterals.push(position);
    const positions = this.byLiteral.get(literal);
    if (positions === undefined) this.byLiteral.set(literal, [position]);
    else positions.push(position);
  }

  /** Sets `notApplying` to 1 for the filed rules whose literal differs from `value`, to 0 for the others. */
  mark(notApplying: Uint8Array, value: Value): void {
    const filed = this.positions;
    for (let i = 0; i < filed.length; i++) notApplying[filed[i]!] = 1;
    let equal: readonly number[] | undefined;
    if (value === null || typeof value === "string" || typeof value === "boolean") equal = this.byLiteral.get(value);
    else if (typeof value === "number" && !Number.isNaN(value)) equal = this.byLiteral.get(value);
    else if (typeof value === "number" || isDecimal(value)) equal = this.numberLiterals;
    if (equal !== undefined) for (let i = 0; i < equal.length; i++) notApplying[equal[i]!] = 0;
  }
}
