import { LoadError } from "../engine/bundle/load-problem.ts";
import type { JsonObject, JsonValue } from "../engine/value/json-value.ts";
import { staticProblems, type SchemaLoader } from "./checks/static-checks.ts";
import { buildBundle } from "./manifest/build-manifest.ts";
import { RulesetResolver, type Registry, type ResolvedRuleset } from "./resolve/resolve-ruleset.ts";

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
}

export interface CompiledRuleset {
  readonly ruleset: ResolvedRuleset;
  readonly bundle: JsonObject;
}

export function compileRuleset(document: JsonValue, options: CompileOptions = {}): CompiledRuleset {
  const resolver = options.resolver ?? new RulesetResolver(options.registry ?? new Map());
  const ruleset = resolver.resolve(document);
  const problems = staticProblems(ruleset.resolved, options.loadSchema);
  if (problems.length > 0) throw new LoadError(problems);
  return { ruleset, bundle: buildBundle(ruleset) };
}
