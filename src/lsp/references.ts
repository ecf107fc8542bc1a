import type { Location } from "vscode-languageserver/node";
import { isJsonObject, listAt, objectAt } from "../engine/value/json-access.ts";
import type { JsonValue } from "../engine/value/json-value.ts";
import type { SourceFile } from "../workspace/files/source-documents.ts";
import type { RulesetContext } from "./ruleset-context.ts";
import { descendantsOf, lineageOf } from "./ruleset-family.ts";
import { locationIn } from "./source-location.ts";
import type { SourcePathAt } from "./source-path-at.ts";

type Named = { readonly kind: "rule" | "param" | "function"; readonly name: string };

/**
 * References of a rule id, a param or a function: for a rule, its declaration, the overrides and
 * golden tests that name it; for a param, its declaration, its overrides and every `var` that reads
 * it; for a function, its declaration and every `fn` that calls it. Looked for in the ruleset that
 * declares the name and the rulesets that extend it: another ruleset declaring the same name
 * declares another thing.
 */
export function referencesAt(
  context: RulesetContext,
  at: SourcePathAt,
  textOf: (file: string) => string | undefined,
): Location[] {
  const named = nameAt(at);
  if (named === undefined) return [];
  const locations: Location[] = [];
  for (const source of namingFamily(context, named)) {
    if (source.document === undefined) continue;
    walk(source.document, [], (value, path) => {
      const place = matchAt(named, value, path);
      if (place === undefined) return;
      const location = locationIn(source.file, source.locate, place.path, place.part, textOf);
      if (location !== undefined) locations.push(location);
    });
  }
  return locations;
}

/** The ruleset declaring the name (the nearest of the source and its parents that does; the source itself when none does) and its descendants. */
function namingFamily(context: RulesetContext, named: Named): SourceFile[] {
  const owner =
    lineageOf(context.directory, context.source).find((source) => declares(source.document, named)) ?? context.source;
  return descendantsOf(context.directory, owner);
}

function declares(document: JsonValue | undefined, named: Named): boolean {
  const root = objectAt(document);
  if (named.kind === "param") return Object.hasOwn(objectAt(root.params), named.name);
  if (named.kind === "function") return Object.hasOwn(objectAt(root.functions), named.name);
  return listAt(root.rules).some((rule) => objectAt(rule).id === named.name);
}

function nameAt(at: SourcePathAt): Named | undefined {
  const { path } = at;
  const member = path[path.length - 1];
  const value = at.scalar ?? "";
  if (
    at.part === "key" &&
    ((path.length === 2 && path[0] === "params") ||
      (path.length === 3 && path[0] === "overrides" && path[1] === "params"))
  )
    return { kind: "param", name: member! };
  if (at.part === "key" && path.length === 2 && path[0] === "functions") return { kind: "function", name: member! };
  if (at.part !== "value") return undefined;
  if (member === "var" && value.startsWith("params.")) return { kind: "param", name: value.split(".")[1]! };
  if (member === "fn") return { kind: "function", name: value };
  if ((member === "id" && path.length === 3 && path[0] === "rules") || member === "rule")
    return { kind: "rule", name: value };
  return undefined;
}

/** Where a document names the rule, param or function at `path`, if it does. */
function matchAt(
  named: Named,
  value: JsonValue,
  path: readonly string[],
): { path: readonly string[]; part: "key" | "value" } | undefined {
  const member = path[path.length - 1];
  if (named.kind === "rule") {
    const isRuleId = member === "id" && path.length === 3 && path[0] === "rules";
    return (isRuleId || member === "rule") && value === named.name ? { path, part: "value" } : undefined;
  }
  if (named.kind === "function") {
    if (member === "fn" && value === named.name) return { path, part: "value" };
    return path.length === 2 && path[0] === "functions" && member === named.name ? { path, part: "key" } : undefined;
  }
  if (
    member === "var" &&
    typeof value === "string" &&
    (value === `params.${named.name}` || value.startsWith(`params.${named.name}.`))
  )
    return { path, part: "value" };
  const declared =
    (path.length === 2 && path[0] === "params") ||
    (path.length === 3 && path[0] === "overrides" && path[1] === "params");
  return declared && member === named.name ? { path, part: "key" } : undefined;
}

function walk(value: JsonValue, path: string[], visit: (value: JsonValue, path: readonly string[]) => void): void {
  visit(value, path);
  if (Array.isArray(value)) value.forEach((item, index) => walk(item, [...path, String(index)], visit));
  else if (isJsonObject(value)) for (const [key, member] of Object.entries(value)) walk(member, [...path, key], visit);
}
