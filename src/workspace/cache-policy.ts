import type { LoadProblem } from "../engine/bundle/load-problem.ts";
import { isJsonObject } from "../engine/value/json-access.ts";
import type { JsonValue } from "../engine/value/json-value.ts";

/**
 * The cache policy of client manifests and public rule details (SERVER.md, "Cache policy file"):
 * a default rule and rules per ruleset, each `revalidate`, `ttl` (with maxAge and optional
 * staleWhileRevalidate / staleIfError, whole seconds up to a year) or `permanent`.
 */
export type CacheRule =
  | { readonly mode: "revalidate" }
  | { readonly mode: "permanent" }
  | {
      readonly mode: "ttl";
      readonly maxAge: number;
      readonly staleWhileRevalidate?: number;
      readonly staleIfError?: number;
    };

const ONE_YEAR = 31536000;
const REVALIDATE = "public, max-age=0, must-revalidate";
const IMMUTABLE = `public, max-age=${ONE_YEAR}, immutable`;
const TTL_MEMBERS = ["maxAge", "staleWhileRevalidate", "staleIfError"] as const;

export class CachePolicy {
  static readonly DEFAULT = new CachePolicy({ mode: "revalidate" }, new Map());

  constructor(
    private readonly fallback: CacheRule,
    private readonly byRuleset: ReadonlyMap<string, CacheRule>,
  ) {}

  /** The rules as plain data: a serving process of several builds the same policy from them (RULE_SERVER_PROCESSES). */
  get rules(): { readonly fallback: CacheRule; readonly byRuleset: readonly (readonly [string, CacheRule])[] } {
    return { fallback: this.fallback, byRuleset: [...this.byRuleset] };
  }

  /** Cache-Control of a public response; `pinned` when the request named the checksum being served. */
  cacheControl(rulesetId: string, pinned: boolean): string {
    const rule = this.byRuleset.get(rulesetId) ?? this.fallback;
    switch (rule.mode) {
      case "revalidate":
        return REVALIDATE;
      case "permanent":
        return pinned ? IMMUTABLE : REVALIDATE;
      case "ttl": {
        let value = `public, max-age=${rule.maxAge}`;
        if (rule.staleWhileRevalidate !== undefined) value += `, stale-while-revalidate=${rule.staleWhileRevalidate}`;
        if (rule.staleIfError !== undefined) value += `, stale-if-error=${rule.staleIfError}`;
        return value;
      }
    }
  }

  /** Reads a parsed policy file; every problem is reported, each naming the member. */
  static read(
    document: JsonValue,
    servedIds: ReadonlySet<string>,
    file: string,
  ): { policy?: CachePolicy; problems: LoadProblem[] } {
    const problems: LoadProblem[] = [];
    const problem = (message: string): void => void problems.push({ code: "CACHE_POLICY_INVALID", message, file });
    if (!isJsonObject(document)) {
      problem("the cache policy must be an object with 'default' and/or 'rulesets'");
      return { problems };
    }
    for (const key of Object.keys(document))
      if (key !== "default" && key !== "rulesets") problem(`unknown member '${key}'`);
    const fallback =
      document.default === undefined ? { mode: "revalidate" as const } : readRule(document.default, "default", problem);
    const byRuleset = new Map<string, CacheRule>();
    if (document.rulesets !== undefined) {
      if (!isJsonObject(document.rulesets)) problem("'rulesets' must be an object of ruleset id to rule");
      else {
        for (const [id, rule] of Object.entries(document.rulesets)) {
          if (!servedIds.has(id)) problem(`rulesets.${id}: no ruleset ${id} is served`);
          const read = readRule(rule, `rulesets.${id}`, problem);
          if (read) byRuleset.set(id, read);
        }
      }
    }
    return problems.length > 0 || !fallback ? { problems } : { policy: new CachePolicy(fallback, byRuleset), problems };
  }
}

function readRule(rule: JsonValue, where: string, problem: (message: string) => void): CacheRule | undefined {
  const problems: string[] = [];
  const read = interpretRule(rule, where, problems);
  problems.forEach(problem);
  return problems.length === 0 ? read : undefined;
}

function interpretRule(rule: JsonValue, where: string, problems: string[]): CacheRule | undefined {
  if (!isJsonObject(rule)) {
    problems.push(`${where} must be an object with a 'mode'`);
    return undefined;
  }
  for (const key of Object.keys(rule))
    if (key !== "mode" && !(TTL_MEMBERS as readonly string[]).includes(key))
      problems.push(`${where}: unknown member '${key}'`);
  const mode = rule.mode;
  if (mode !== "revalidate" && mode !== "ttl" && mode !== "permanent") {
    problems.push(`${where}.mode is required and must be revalidate, ttl or permanent`);
    return undefined;
  }
  const seconds: Partial<Record<(typeof TTL_MEMBERS)[number], number>> = {};
  for (const member of TTL_MEMBERS) {
    const value = rule[member];
    if (value === undefined) continue;
    if (mode !== "ttl") problems.push(`${where}.${member} belongs to ttl rules only`);
    const minimum = member === "maxAge" ? 1 : 0;
    if (typeof value !== "number" || !Number.isInteger(value) || value < minimum || value > ONE_YEAR) {
      problems.push(`${where}.${member} must be a whole number of seconds from ${minimum} to ${ONE_YEAR}`);
    } else seconds[member] = value;
  }
  if (mode === "ttl" && rule.maxAge === undefined) problems.push(`${where}.maxAge is required for ttl`);
  if (mode !== "ttl") return { mode };
  return {
    mode,
    maxAge: seconds.maxAge ?? 1,
    staleWhileRevalidate: seconds.staleWhileRevalidate,
    staleIfError: seconds.staleIfError,
  };
}
