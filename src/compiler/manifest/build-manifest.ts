import type { Channel } from "../../engine/bundle/channel.ts";
import { isJsonObject, listAt, objectAt, setMember, stringAt } from "../../engine/value/json-access.ts";
import type { JsonObject, JsonValue } from "../../engine/value/json-value.ts";
import { BUNDLE_FORMAT_VERSION } from "../../engine/bundle/bundle-format.ts";
import { reachableNames, ruleExpressions, walkExpression } from "../expressions/expression-walk.ts";
import type { ResolvedRuleset } from "../resolve/resolve-ruleset.ts";
import type { EmbeddedSchema } from "../../engine/schema/entity-schema.ts";
import { ENTITY_SCHEMAS_MEMBER } from "../../engine/schema/manifest-schemas.ts";

/**
 * Manifests and bundles (specification section 7). The server manifest holds everything; the
 * client manifest holds only client-safe rules and the functions, params and messages they
 * reach, because browsers fetch it.
 */
export function buildManifest(
  { resolved, checksum }: ResolvedRuleset,
  channel: Channel,
  entitySchemas: Readonly<Record<string, EmbeddedSchema>> = {},
): JsonObject {
  const allRules = listAt(resolved.rules).map(objectAt);
  const client = channel === "client";
  const rules = client ? allRules.filter(isClientSafe) : allRules;
  const expressions = rules.flatMap(ruleExpressions);
  const resolvedFunctions = objectAt(resolved.functions);
  const reachable = reachableNames(expressions, resolvedFunctions);

  let functions = mapMembers(resolvedFunctions, (fn) => ({
    params: objectAt(fn).params ?? null,
    body: objectAt(fn).body ?? null,
  }));
  let params = mapMembers(objectAt(resolved.params), (param) => objectAt(param).value ?? null);
  let messages = objectAt(resolved.messages);
  if (client) {
    functions = keepMembers(functions, reachable.functions);
    const usedParams = new Set<string>();
    const collect = (node: JsonObject): void => {
      if (typeof node.var === "string" && node.var.startsWith("params.")) usedParams.add(node.var.split(".")[1]!);
    };
    for (const expression of expressions) walkExpression(expression, collect);
    for (const fn of Object.values(functions)) walkExpression(objectAt(fn).body, collect);
    params = keepMembers(params, usedParams);
    const usedMessages = new Set(
      rules.filter((rule) => Object.hasOwn(rule, "finding")).map((rule) => stringAt(objectAt(rule.finding).message)),
    );
    messages = mapMembers(messages, (catalog) => keepMembers(objectAt(catalog), usedMessages));
  }
  const fieldTypes: JsonObject = {};
  for (const [entity, definition] of Object.entries(objectAt(resolved.entities))) {
    const bound = objectAt(definition).fieldTypes;
    if (isJsonObject(bound) && Object.keys(bound).length > 0) setMember(fieldTypes, entity, bound);
  }
  const manifest: JsonObject = {
    ruleCascade: resolved.ruleCascade ?? null,
    id: resolved.id ?? null,
    version: resolved.version ?? null,
    checksum,
    channel,
    conflictPolicy: resolved.conflictPolicy ?? null,
    defaultLocale: resolved.defaultLocale ?? null,
    params,
    fieldTypes,
    functions,
    operators: [...reachable.operators].sort(),
    rules,
    messages,
  };
  // Our extension, after the specification's members; absent when no entity has a schema.
  if (Object.keys(entitySchemas).length > 0) manifest[ENTITY_SCHEMAS_MEMBER] = entitySchemas as unknown as JsonObject;
  return manifest;
}

export function buildBundle(
  ruleset: ResolvedRuleset,
  entitySchemas: Readonly<Record<string, EmbeddedSchema>> = {},
): JsonObject {
  return {
    ruleCascadeBundle: BUNDLE_FORMAT_VERSION,
    id: ruleset.resolved.id ?? null,
    version: ruleset.resolved.version ?? null,
    checksum: ruleset.checksum,
    manifests: {
      server: buildManifest(ruleset, "server", entitySchemas),
      client: buildManifest(ruleset, "client", entitySchemas),
    },
  };
}

/** A rule a browser may see and run: enforced on the client and not an action. */
function isClientSafe(rule: JsonObject): boolean {
  const enforcement = Object.hasOwn(rule, "enforcement") ? rule.enforcement : "both";
  return (enforcement === "client" || enforcement === "both") && rule.kind !== "action";
}

function mapMembers(object: JsonObject, map: (value: JsonValue) => JsonValue): JsonObject {
  const mapped: JsonObject = {};
  for (const [key, value] of Object.entries(object)) setMember(mapped, key, map(value));
  return mapped;
}

function keepMembers(object: JsonObject, keep: ReadonlySet<string>): JsonObject {
  const kept: JsonObject = {};
  for (const [key, value] of Object.entries(object)) if (keep.has(key)) setMember(kept, key, value);
  return kept;
}
