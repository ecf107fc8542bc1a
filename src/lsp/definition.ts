import type { Location } from "vscode-languageserver/node";
import type { DocumentSource } from "../compiler/problems/problem-place.ts";
import { fragmentPath } from "../compiler/source/json-pointer.ts";
import { listAt, objectAt, stringAt } from "../engine/value/json-access.ts";
import type { JsonValue } from "../engine/value/json-value.ts";
import { ruleAt, type RulesetContext } from "./ruleset-context.ts";
import { lineageOf } from "./ruleset-family.ts";
import { schemaPropertyPath } from "./schema-members.ts";
import { locationIn, type PlacedDocument } from "./source-location.ts";
import type { SourcePathAt } from "./source-path-at.ts";

/**
 * Go to definition from a name in a ruleset source: a param (`var: params.x`, or a child's
 * override of it) to its declaration, a function to its declaration, a message key to its text, a
 * parent ruleset to its file, a rule an override or a test names to the rule, a data path to its
 * property in the schema file, and an entity (a rule's target, a test's, a child's declaration of
 * an inherited one) to its declarations and its schema. Declarations are looked for in the
 * ruleset, then its parents, nearest first.
 */
export function definitionAt(
  context: RulesetContext,
  at: SourcePathAt,
  textOf: (file: string) => string | undefined,
): Location[] {
  const { path } = at;
  const member = path[path.length - 1];
  const value = at.scalar ?? "";
  const chain = declaringChain(context);
  const first = (
    pathIn: (document: JsonValue | undefined) => string[] | undefined,
    part: "key" | "value" = "key",
  ): Location[] => {
    for (const placed of chain) {
      const found = pathIn(placed.document);
      if (found === undefined) continue;
      const location = locationIn(placed.file, placed.locate, found, part, textOf);
      if (location !== undefined) return [location];
    }
    return [];
  };
  if (at.part === "key") {
    if (path.length === 3 && path[0] === "overrides" && path[1] === "params")
      return first((document) =>
        Object.hasOwn(objectAt(objectAt(document).params), member!) ? ["params", member!] : undefined,
      );
    // On an entity's declaration: the parents' declarations it is merged over, and its schema.
    if (path.length === 2 && path[0] === "entities")
      return entityDefinition(
        context,
        member!,
        chain.filter((placed) => placed.file !== context.file),
        textOf,
      );
    if (path.length === 1 && path[0] === "entities")
      return Object.keys(objectAt(context.document?.entities)).flatMap(
        (entity) => schemaLocation(context, entitySchemaRef(context, entity), textOf) ?? [],
      );
    return [];
  }
  switch (member) {
    case "var": {
      const [root, ...segments] = value.split(".");
      if (root === "params" && segments[0] !== undefined)
        return first((document) =>
          Object.hasOwn(objectAt(objectAt(document).params), segments[0]!) ? ["params", segments[0]!] : undefined,
        );
      if ((root === "data" || root === "original") && segments.length > 0)
        return dataPathDefinition(context, path, segments, textOf);
      return [];
    }
    case "fn":
      return first((document) =>
        Object.hasOwn(objectAt(objectAt(document).functions), value) ? ["functions", value] : undefined,
      );
    case "message":
      return first((document) => {
        const locale = Object.entries(objectAt(objectAt(document).messages)).find(([, catalog]) =>
          Object.hasOwn(objectAt(catalog), value),
        )?.[0];
        return locale === undefined ? undefined : ["messages", locale, value];
      });
    case "ruleset":
      return first(
        (document) => (stringAt(objectAt(objectAt(document).metadata).id) === value ? ["metadata", "id"] : undefined),
        "value",
      );
    case "rule":
      return first((document) => {
        const index = listAt(objectAt(document).rules).findIndex((rule) => objectAt(rule).id === value);
        return index === -1 ? undefined : ["rules", String(index), "id"];
      }, "value");
    case "entity": {
      const isTarget = path.length === 4 && path[0] === "rules" && path[2] === "target";
      const isTested = path.length === 3 && path[0] === "tests";
      return isTarget || isTested ? entityDefinition(context, value, chain, textOf) : [];
    }
    case "$ref": {
      const isSchemaRef = path.length === 4 && path[0] === "entities" && path[2] === "schema";
      const location = isSchemaRef ? schemaLocation(context, value, textOf) : undefined;
      return location === undefined ? [] : [location];
    }
    default:
      return [];
  }
}

/** The ruleset's own document, then its parents' (found by id in the directory when it does not resolve). */
function declaringChain(context: RulesetContext): PlacedDocument[] {
  const byDocument = new Map(context.directory.sources.map((source) => [source.document, source] as const));
  const documents =
    context.resolved === undefined
      ? lineageOf(context.directory, context.source).map((source) => source.document)
      : [context.resolved.document, ...context.resolved.parents.map((parent) => parent.document)];
  return [...new Set(documents)].flatMap((document) => {
    const source = byDocument.get(document);
    return source === undefined
      ? []
      : [
          {
            file: source.file,
            document: source.document,
            ...(source.locate === undefined ? {} : { locate: source.locate }),
          },
        ];
  });
}

/**
 * An entity named: each declaration along the chain, nearest first (a child's is merged over its
 * parent's, member by member), then the schema object its `$ref` names.
 */
function entityDefinition(
  context: RulesetContext,
  entity: string,
  chain: readonly PlacedDocument[],
  textOf: (file: string) => string | undefined,
): Location[] {
  const declarations = chain.flatMap((placed) => {
    if (!Object.hasOwn(objectAt(objectAt(placed.document).entities), entity)) return [];
    return locationIn(placed.file, placed.locate, ["entities", entity], "key", textOf) ?? [];
  });
  const schema = schemaLocation(context, entitySchemaRef(context, entity), textOf);
  return schema === undefined ? declarations : [...declarations, schema];
}

/** The `$ref` of an entity's schema, as the ruleset resolves it with its parents. */
function entitySchemaRef(context: RulesetContext, entity: string): string {
  return stringAt(objectAt(objectAt(context.entities[entity]).schema).$ref);
}

/** The schema file a `$ref` names and the path of its fragment, when the file can be read. */
function schemaSource(context: RulesetContext, ref: string): { source: DocumentSource; fragment: string } | undefined {
  if (ref === "") return undefined;
  const hash = ref.indexOf("#");
  const loaded = context.directory.loadSchema(hash === -1 ? ref : ref.slice(0, hash));
  if (loaded === undefined || !loaded.ok || loaded.source === undefined) return undefined;
  return { source: loaded.source, fragment: hash === -1 ? "" : ref.slice(hash + 1) };
}

/** Where a `$ref` points: the schema object its fragment names (the file's start without one). */
function schemaLocation(
  context: RulesetContext,
  ref: string,
  textOf: (file: string) => string | undefined,
): Location | undefined {
  const named = schemaSource(context, ref);
  return named === undefined
    ? undefined
    : locationIn(named.source.file, named.source.locate, fragmentPath(named.fragment), "key", textOf);
}

function dataPathDefinition(
  context: RulesetContext,
  path: readonly string[],
  segments: readonly string[],
  textOf: (file: string) => string | undefined,
): Location[] {
  const entity = stringAt(objectAt(ruleAt(context, path)?.target).entity);
  const schema = context.entitySchemas.get(entity);
  const named = schemaSource(context, entitySchemaRef(context, entity));
  if (schema === undefined || named === undefined) return [];
  const inSchema = schemaPropertyPath(schema, named.fragment, segments);
  if (inSchema === undefined) return [];
  const location = locationIn(named.source.file, named.source.locate, inSchema, "key", textOf);
  return location === undefined ? [] : [location];
}
