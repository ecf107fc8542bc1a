import type { Location } from "vscode-languageserver/node";
import { listAt, objectAt, stringAt } from "../engine/value/json-access.ts";
import type { JsonValue } from "../engine/value/json-value.ts";
import { ruleAt, type RulesetContext } from "./ruleset-context.ts";
import { schemaPropertyPath } from "./schema-members.ts";
import { locationIn, type PlacedDocument } from "./source-location.ts";
import type { SourcePathAt } from "./source-path-at.ts";

/**
 * Go to definition from a name in a ruleset source: a param (`var: params.x`) to its declaration,
 * a function to its declaration, a message key to its text, a parent ruleset to its file, a rule
 * an override or a test names to the rule, and a data path to its property in the schema file.
 * Declarations are looked for in the ruleset, then its parents, nearest first.
 */
export function definitionAt(context: RulesetContext, at: SourcePathAt, textOf: (file: string) => string | undefined): Location[] {
  const { path } = at;
  const member = path[path.length - 1];
  const value = at.scalar ?? "";
  const chain = declaringChain(context);
  const first = (pathIn: (document: JsonValue | undefined) => string[] | undefined, part: "key" | "value" = "key"): Location[] => {
    for (const placed of chain) {
      const found = pathIn(placed.document);
      if (found === undefined) continue;
      const location = locationIn(placed.file, placed.locate, found, part, textOf);
      if (location !== undefined) return [location];
    }
    return [];
  };
  if (at.part !== "value") return [];
  switch (member) {
    case "var": {
      const [root, ...segments] = value.split(".");
      if (root === "params" && segments[0] !== undefined) return first((document) => (Object.hasOwn(objectAt(objectAt(document).params), segments[0]!) ? ["params", segments[0]!] : undefined));
      if ((root === "data" || root === "original") && segments.length > 0) return dataPathDefinition(context, path, segments, textOf);
      return [];
    }
    case "fn":
      return first((document) => (Object.hasOwn(objectAt(objectAt(document).functions), value) ? ["functions", value] : undefined));
    case "message":
      return first((document) => {
        const locale = Object.entries(objectAt(objectAt(document).messages)).find(([, catalog]) => Object.hasOwn(objectAt(catalog), value))?.[0];
        return locale === undefined ? undefined : ["messages", locale, value];
      });
    case "ruleset":
      return first((document) => (stringAt(objectAt(objectAt(document).metadata).id) === value ? ["metadata", "id"] : undefined), "value");
    case "rule":
      return first((document) => {
        const index = listAt(objectAt(document).rules).findIndex((rule) => objectAt(rule).id === value);
        return index === -1 ? undefined : ["rules", String(index), "id"];
      }, "value");
    default:
      return [];
  }
}

/** The ruleset's own document, then its parents' (every document of the directory when it does not resolve). */
function declaringChain(context: RulesetContext): PlacedDocument[] {
  const byDocument = new Map(context.directory.sources.map((source) => [source.document, source] as const));
  const documents = context.resolved === undefined ? [context.document, ...context.directory.sources.map((source) => source.document)] : [context.resolved.document, ...context.resolved.parents.map((parent) => parent.document)];
  return [...new Set(documents)].flatMap((document) => {
    const source = byDocument.get(document);
    return source === undefined ? [] : [{ file: source.file, document: source.document, ...(source.locate === undefined ? {} : { locate: source.locate }) }];
  });
}

function dataPathDefinition(context: RulesetContext, path: readonly string[], segments: readonly string[], textOf: (file: string) => string | undefined): Location[] {
  const entity = stringAt(objectAt(ruleAt(context, path)?.target).entity);
  const schema = context.entitySchemas.get(entity);
  const ref = stringAt(objectAt(objectAt(context.entities[entity]).schema).$ref);
  if (schema === undefined || ref === "") return [];
  const hash = ref.indexOf("#");
  const loaded = context.directory.loadSchema(hash === -1 ? ref : ref.slice(0, hash));
  if (loaded === undefined || !loaded.ok || loaded.source === undefined) return [];
  const inSchema = schemaPropertyPath(schema, hash === -1 ? "" : ref.slice(hash + 1), segments);
  if (inSchema === undefined) return [];
  const location = locationIn(loaded.source.file, loaded.source.locate, inSchema, "key", textOf);
  return location === undefined ? [] : [location];
}
