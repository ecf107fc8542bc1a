import { followFragment } from "../compiler/checks/entity-schema.ts";
import type { EntitySchema } from "../compiler/checks/entity-schemas.ts";
import { kindOfView, viewAtPath, viewOf } from "../compiler/checks/schema-types.ts";
import { isJsonObject, objectAt } from "../engine/value/json-access.ts";
import { fragmentPath } from "../compiler/source/json-pointer.ts";

/** What an entity schema says of a data path, for completion and hover. */
export interface SchemaPlace {
  /** The members an object there has, with their descriptions. */
  readonly members: ReadonlyMap<string, string | undefined>;
  readonly kind: string | undefined;
  readonly description: string | undefined;
}

/** The schema at the path below an entity's root (`beneficiary`, `country`), or undefined where the schema does not describe it. */
export function schemaPlace(schema: EntitySchema, segments: readonly string[]): SchemaPlace | undefined {
  const view = viewAtPath(viewOf(schema.document, schema.schema), segments);
  if (view === undefined) return undefined;
  const members = new Map<string, string | undefined>();
  let description: string | undefined;
  for (const node of view.nodes) {
    if (description === undefined && typeof node.description === "string") description = node.description;
    for (const [name, property] of Object.entries(objectAt(node.properties))) {
      if (!members.has(name) || members.get(name) === undefined) members.set(name, memberDescription(schema, property));
    }
  }
  return { members, kind: kindOfView(view), description };
}

function memberDescription(schema: EntitySchema, property: unknown): string | undefined {
  for (const node of viewOf(schema.document, property as never).nodes)
    if (typeof node.description === "string") return node.description;
  return undefined;
}

/**
 * The path inside the schema file of the property a data path names (for go to definition):
 * from the entity's `$ref` fragment, through local `$ref`s, `properties` and `items`.
 */
export function schemaPropertyPath(
  schema: EntitySchema,
  fragment: string,
  segments: readonly string[],
): string[] | undefined {
  let path = fragmentPath(fragment);
  let node = schema.schema;
  for (const segment of segments) {
    // Local references first: the property lives where the reference leads.
    for (
      let hops = 0;
      isJsonObject(node) && typeof node.$ref === "string" && node.$ref.startsWith("#") && hops < 32;
      hops++
    ) {
      const target = node.$ref.slice(1);
      const followed = followFragment(schema.document, target);
      if (!("node" in followed)) return undefined;
      path = fragmentPath(target);
      node = followed.node;
    }
    if (!isJsonObject(node)) return undefined;
    if (/^[0-9]+$/.test(segment) && isJsonObject(node.items)) {
      path = [...path, "items"];
      node = node.items;
      continue;
    }
    const properties = objectAt(node.properties);
    if (!Object.hasOwn(properties, segment)) return undefined;
    path = [...path, "properties", segment];
    node = properties[segment]!;
  }
  return path;
}
