import type { TSchema } from "@sinclair/typebox";
import { Errors, type ValueErrorIterator } from "@sinclair/typebox/errors";
import { Hash } from "@sinclair/typebox/value";

/** A compiled check of a schema, and the walk that finds why a value fails it. */
export interface SchemaChecker {
  Check(value: unknown): boolean;
  Errors(value: unknown): ValueErrorIterator;
}

/**
 * TypeBox's compiled check from the code TypeCompiler generated for `schema` (checked-schemas.ts),
 * with the key `uniqueItems` compares items by changed: TypeBox hashes every item (FNV-1a, a
 * BigInt step per byte), and checking the `operations` of every rule took a sixth of validating a
 * document and a tenth of the release executable's start-up. The arrays the schema wants unique
 * hold strings, and a string is its own key: a Set tells strings apart exactly, and never takes
 * one for the BigInt hash of another value. The schema is asked for only by the error walk, when
 * a value fails: the executable builds it then.
 */
export function compileChecker(schema: () => TSchema, code: string): SchemaChecker {
  // TypeBox passes these the registries of custom kinds and formats; the schema uses neither.
  if (/\b(?:kind|format)\(/.test(code))
    throw new Error("the schema uses a custom kind or format: compile it with TypeCompiler.Compile");
  const unsupported = () => false;
  const check = new Function("kind", "format", "hash", code)(unsupported, unsupported, uniqueItemKey) as (
    value: unknown,
  ) => boolean;
  return { Check: check, Errors: (value) => Errors(schema(), [], value) };
}

/** What `uniqueItems` compares an item by: a string itself, anything else TypeBox's hash of it. */
export function uniqueItemKey(item: unknown): unknown {
  return typeof item === "string" ? item : Hash(item);
}
