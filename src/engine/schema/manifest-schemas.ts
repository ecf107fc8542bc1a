import { isJsonObject } from "../value/json-access.ts";
import type { JsonObject, JsonValue } from "../value/json-value.ts";
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

/**
 * The entities a manifest declares (its rules' targets, its field types, its schemas) that it has
 * no schema for, sorted: requests for them are checked for entity and operation only. Read from
 * the manifest alone, so that saying so at load does not prepare every rule (plans are made on
 * first use).
 */
export function entitiesWithoutSchemaIn(manifest: JsonObject): string[] {
  const schemas = embeddedSchemas(manifest[ENTITY_SCHEMAS_MEMBER]);
  const declared = new Set<string>([
    ...(isJsonObject(manifest.fieldTypes) ? Object.keys(manifest.fieldTypes) : []),
    ...Object.keys(schemas),
  ]);
  for (const rule of Array.isArray(manifest.rules) ? manifest.rules : []) {
    const entity = isJsonObject(rule) && isJsonObject(rule.target) ? rule.target.entity : undefined;
    if (typeof entity === "string") declared.add(entity);
  }
  return [...declared].filter((entity) => schemas[entity] === undefined).sort();
}
