import { isJsonObject } from "../value/json-access.ts";
import type { JsonValue } from "../value/json-value.ts";
import type { EmbeddedSchema } from "./entity-schema.ts";

/**
 * The manifest member in which a bundle compiled by rule-server carries its entities' schemas:
 * an extension (`x-`), which other runtimes ignore. Both manifests carry it, so that a browser
 * holding the client manifest checks requests as the server does.
 */
export const ENTITY_SCHEMAS_MEMBER = "x-entitySchemas";

/** The entity schemas a manifest carries, by entity; entries of another shape are left out. */
export function embeddedSchemas(member: JsonValue | undefined): Readonly<Record<string, EmbeddedSchema>> {
  const schemas: Record<string, EmbeddedSchema> = Object.create(null);
  if (!isJsonObject(member)) return schemas;
  for (const [entity, entry] of Object.entries(member)) {
    if (isJsonObject(entry) && Object.hasOwn(entry, "schema") && isJsonObject(entry.definitions ?? {})) {
      schemas[entity] = { schema: entry.schema!, definitions: (entry.definitions ?? {}) as Record<string, JsonValue> };
    }
  }
  return schemas;
}
