import { ENTITY_SCHEMAS_MEMBER } from "../../src/engine/schema/manifest-schemas.ts";

/**
 * A bundle or manifest as the specification defines it: our extension members taken out, so that
 * what rule-server compiles compares with another runtime's output.
 */
export function withoutOurExtensions<T>(document: T): T {
  const copy = structuredClone(document) as Record<string, unknown>;
  const manifests = (copy.manifests ?? { one: copy }) as Record<string, Record<string, unknown>>;
  for (const manifest of Object.values(manifests)) delete manifest[ENTITY_SCHEMAS_MEMBER];
  return copy as T;
}

/** The entities whose schemas a manifest carries. */
export function entitiesWithSchemas(manifest: unknown): string[] {
  return Object.keys(((manifest as Record<string, unknown>)[ENTITY_SCHEMAS_MEMBER] ?? {}) as object).sort();
}
