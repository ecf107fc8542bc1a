import { closestName } from "../../engine/names/closest-name.ts";
import type { JsonValue } from "../../engine/value/json-value.ts";
import { followSchemaPath } from "./entity-schema.ts";
import type { EntitySchema } from "./entity-schemas.ts";

/**
 * " : did you mean `X`?" for a path the entity schema does not have, with the first segment it
 * lacks replaced by the closest name it has there; "" when none is close.
 */
export function pathSuggestion(
  entity: EntitySchema,
  base: JsonValue,
  segments: readonly string[],
  render: (segments: readonly string[]) => string,
): string {
  const found = followSchemaPath(entity.document, base, segments);
  if (!("miss" in found)) return "";
  const closest = closestName(segments[found.miss.index]!, found.miss.known);
  if (closest === undefined) return "";
  return `: did you mean \`${render([...segments.slice(0, found.miss.index), closest, ...segments.slice(found.miss.index + 1)])}\`?`;
}

export const asPointer = (segments: readonly string[]): string => `/${segments.join("/")}`;
