/**
 * Which documents the language server is given: ruleset sources, and entity schema files by the
 * names they usually have (`customer.schema.json`; `payments.openapi.yaml` as in the example
 * rules). A schema file matters only to the rulesets naming it, so the server is started for a
 * ruleset, never for a schema alone: a workspace of JSON Schemas without rules is left alone.
 */
export const RULESET_GLOB = "**/*.ruleset.{yaml,yml,json}";
export const SCHEMA_GLOBS = ["**/*.schema.json", "**/*.openapi.{yaml,yml,json}"] as const;

/** The language client's document selector: files on disk only, since the server reads their neighbours. */
export const DOCUMENT_SELECTOR = [RULESET_GLOB, ...SCHEMA_GLOBS].map((pattern) => ({ scheme: "file", pattern }));

/**
 * The server is told of changes on disk to any YAML or JSON file: a `$ref` may name a schema file
 * by any name, and a saved or deleted one changes what its rulesets' checks say.
 */
export const WATCHED_GLOB = "**/*.{yaml,yml,json}";

/** Folders never searched for rulesets when deciding whether to start. */
export const SEARCH_EXCLUDE = "**/{node_modules,.git}/**";

const RULESET_FILE = /\.ruleset\.(ya?ml|json)$/;

export function isRulesetFile(fileName: string): boolean {
  return RULESET_FILE.test(fileName);
}
