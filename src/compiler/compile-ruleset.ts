import { LoadError } from "../engine/bundle/load-problem.ts";
import type { JsonObject, JsonValue } from "../engine/value/json-value.ts";
import { rulesetWarnings, type CheckWarning } from "./checks/check-warnings.ts";
import type { SchemaLoader } from "./checks/schema-file.ts";
import { staticProblems } from "./checks/static-checks.ts";
import { buildBundle } from "./manifest/build-manifest.ts";
import { loadEntitySchemas } from "./checks/entity-schemas.ts";
import { objectAt } from "../engine/value/json-access.ts";
import type { EmbeddedSchema } from "../engine/schema/entity-schema.ts";
import { embedSchema } from "../engine/schema/schema-validator.ts";
import { locateProblems, type DocumentSources, type PlacedProblem } from "./problems/problem-place.ts";
import { parentInvalid, RulesetResolver, type Registry, type ResolvedRuleset } from "./resolve/resolve-ruleset.ts";

/**
 * The compiler (specification sections 5 to 7): a ruleset document, the registry of documents
 * loaded with it and a way to read entity schemas become a bundle, or a LoadError listing why not.
 */
export interface CompileOptions {
  /** Ruleset id to source document: the parents `extends` may name. */
  readonly registry?: Registry;
  /** Reads entity schemas; without it the path checks are skipped (section 5). */
  readonly loadSchema?: SchemaLoader;
  /** A resolver shared by the rulesets of one registry, so that each parent resolves once. */
  readonly resolver?: RulesetResolver;
  /** The files the documents were read from: problems then carry file, line and column. */
  readonly sources?: DocumentSources;
  /**
   * Writes each entity's schema into both manifests (`x-entitySchemas`, our extension), for
   * request checks wherever the bundle goes. Off by default: the engine protocol's `compile`
   * answers the specification's bundle.
   */
  readonly embedEntitySchemas?: boolean;
}

export interface CompiledRuleset {
  readonly ruleset: ResolvedRuleset;
  readonly bundle: JsonObject;
  /**
   * What loads but can never be right (TYPE_MISMATCH, ENUM_VALUE_UNKNOWN, RULE_UNREACHABLE,
   * OPERATION_UNUSED; see checks/check-warnings.ts), located like problems. Never a reason to
   * refuse the ruleset.
   */
  readonly warnings: readonly CheckWarning[];
}

export function compileRuleset(document: JsonValue, options: CompileOptions = {}): CompiledRuleset {
  const resolver = options.resolver ?? new RulesetResolver(options.registry ?? new Map());
  const fail = (problems: readonly PlacedProblem[]): never => {
    throw new LoadError(locateProblems(problems, options.sources));
  };
  let ruleset: ResolvedRuleset;
  try {
    ruleset = resolver.resolve(document);
  } catch (error) {
    if (!(error instanceof LoadError)) throw error;
    return fail([
      ...error.problems,
      ...problemsBesideSchemaProblems(document, error.problems, resolver, options.loadSchema),
    ]);
  }
  // A parent that fails its own static checks is reported as itself, then as the reason the child fails.
  for (const parent of ruleset.parents) {
    const problems = resolver.staticProblemsOf(parent, options.loadSchema);
    if (problems.length > 0)
      fail([...problems, parentInvalid(ruleset.document, parent.resolved.id as string, problems.length)]);
  }
  const problems = resolver.staticProblemsOf(ruleset, options.loadSchema);
  if (problems.length > 0) fail(problems);
  const bundle = buildBundle(
    ruleset,
    options.embedEntitySchemas === true ? embeddedEntitySchemas(ruleset, options.loadSchema) : {},
  );
  // Worked out when first read: check and the language server show them, the server never reads them.
  let warnings: readonly CheckWarning[] | undefined;
  return {
    ruleset,
    bundle,
    get warnings() {
      warnings ??= rulesetWarnings(ruleset, options.loadSchema, options.sources);
      return warnings;
    },
  };
}

/**
 * The entity schemas the manifests carry (`x-entitySchemas`), so that requests can be checked
 * against them where the bundle goes: each entity's schema node with the local definitions it
 * reaches. The static checks have already reported every schema that does not resolve.
 */
function embeddedEntitySchemas(
  ruleset: ResolvedRuleset,
  loadSchema: SchemaLoader | undefined,
): Record<string, EmbeddedSchema> {
  const embedded: Record<string, EmbeddedSchema> = {};
  if (loadSchema === undefined) return embedded;
  const schemas = loadEntitySchemas(
    objectAt(ruleset.resolved.entities),
    loadSchema,
    () => undefined,
    () => undefined,
  );
  for (const [entity, { document, schema }] of [...schemas].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    embedded[entity] = embedSchema(document, schema);
  return embedded;
}

/**
 * The static-check problems of the parts of a document the schema accepts, so that an author sees
 * every mistake at once. Only when every problem is a schema problem inside the rules of this
 * document: the declarations rules refer to are then sound, and a static problem inside or around
 * a place the schema refused is its consequence and is left out.
 */
function problemsBesideSchemaProblems(
  document: JsonValue,
  schemaProblems: readonly PlacedProblem[],
  resolver: RulesetResolver,
  loadSchema: SchemaLoader | undefined,
): PlacedProblem[] {
  const insideRules = (problem: PlacedProblem): boolean =>
    problem.place?.document === document && problem.place.path[0] === "rules" && problem.place.path.length > 2;
  if (!schemaProblems.every((problem) => problem.code === "SCHEMA_INVALID" && insideRules(problem))) return [];
  let problems: PlacedProblem[];
  try {
    const ruleset = resolver.resolveDespiteSchema(document);
    problems = staticProblems(ruleset.resolved, ruleset.places, loadSchema);
  } catch {
    // The document is too broken to go further; its schema problems say why.
    return [];
  }
  const refused = schemaProblems.map((problem) => problem.place!.path.join("/"));
  const overlaps = (path: string): boolean =>
    refused.some((other) => path === other || path.startsWith(`${other}/`) || other.startsWith(`${path}/`));
  // Problems placed straight in another file (an entity schema file) are not consequences of the refused places.
  const inSchemaFile = (problem: PlacedProblem): boolean => problem.place === undefined && problem.file !== undefined;
  return problems.filter(
    (problem) =>
      inSchemaFile(problem) || (problem.place?.document === document && !overlaps(problem.place.path.join("/"))),
  );
}
