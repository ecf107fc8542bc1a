import type { TSchema } from "@sinclair/typebox";
import { TypeCheck, TypeCompiler } from "@sinclair/typebox/compiler";
import { Hash } from "@sinclair/typebox/value";

/**
 * TypeCompiler.Compile, but for the key `uniqueItems` compares items by. TypeBox hashes every item
 * (FNV-1a, a BigInt step per byte): checking the `operations` of every rule took a sixth of
 * validating a document, and a tenth of the release executable's start-up. The arrays the schema
 * wants unique hold strings, and a string is its own key: a Set tells strings apart exactly, and
 * never takes one for the BigInt hash of another value. `code` is the schema's, made ahead or
 * generated (checked-schemas.ts).
 */
export function compileChecker<T extends TSchema>(
  schema: T,
  code = TypeCompiler.Code(schema, [], { language: "javascript" }),
): TypeCheck<T> {
  // TypeBox passes these the registries of custom kinds and formats; the schema uses neither.
  if (/\b(?:kind|format)\(/.test(code))
    throw new Error("the schema uses a custom kind or format: compile it with TypeCompiler.Compile");
  const unsupported = () => false;
  const check = new Function("kind", "format", "hash", code)(unsupported, unsupported, uniqueItemKey);
  return new TypeCheck(schema, [], check, code);
}

/** What `uniqueItems` compares an item by: a string itself, anything else TypeBox's hash of it. */
export function uniqueItemKey(item: unknown): unknown {
  return typeof item === "string" ? item : Hash(item);
}
