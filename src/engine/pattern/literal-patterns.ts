import type { JsonValue } from "../value/json-value.ts";
import { compilePattern } from "./pattern-matcher.ts";

/**
 * The literal patterns of a document (a bundle, a manifest, a function table): the second argument
 * of every `matches` written as a string. Found by walking the whole document, so patterns in
 * rules, function bodies and commands alike; the walk keeps its own stack.
 */
export function literalPatternsIn(document: JsonValue): Set<string> {
  const patterns = new Set<string>();
  const pending: JsonValue[] = [document];
  while (pending.length > 0) {
    const value = pending.pop()!;
    if (typeof value !== "object" || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value) pending.push(item);
      continue;
    }
    if (value.op === "matches" && Array.isArray(value.args) && typeof value.args[1] === "string") patterns.add(value.args[1]);
    for (const key in value) if (Object.hasOwn(value, key)) pending.push(value[key]!);
  }
  return patterns;
}

/**
 * Compiles every literal pattern of a document ahead of its first evaluation, loading the general
 * pattern backend if one needs it. An evaluation worker does this when it receives rulesets: an
 * evaluation under a timeout must not be the one that pays for starting the backend. A pattern
 * that is not portable is skipped: evaluation reports it where it is used.
 */
export function compileLiteralPatterns(document: JsonValue): void {
  for (const pattern of literalPatternsIn(document)) {
    try {
      compilePattern(pattern);
    } catch {
      // Refused or failed: the rule that uses it fails closed when it runs.
    }
  }
}
