import type { JsonValue } from "../../engine/value/json-value.ts";

/** A declaration's document and its path there (`rules/3`, `functions/lateFee`). */
export interface Declared {
  readonly document: JsonValue;
  readonly path: readonly string[];
}

/**
 * Where the rules, functions and entities of a resolved ruleset were declared. Kept beside the
 * resolved ruleset, never in it, so checksums and bundles do not change.
 */
export interface DeclarationPlaces {
  readonly rules: ReadonlyMap<string, Declared>;
  readonly functions: ReadonlyMap<string, Declared>;
  readonly entities: ReadonlyMap<string, Declared>;
}
