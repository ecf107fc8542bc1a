/**
 * Runs portable patterns (specification 4.4). The linear subset of format checks, which is most of
 * what rulesets hold, runs on the JavaScript engine, which provably matches it in linear time
 * (linear-subset.ts). Every other pattern goes to the general backend: RE2 on the server,
 * the page's JavaScript engine in the browser build (re2-pattern-backend.ts is the seam).
 */

import { fail } from "../errors.ts";
import type { BackendPattern, CompiledPattern } from "./compiled-pattern.ts";
import { JavaScriptPattern } from "./javascript-pattern.ts";
import { checkPortablePattern } from "./portable-pattern.ts";
import { compileGeneralPattern } from "./re2-pattern-backend.ts";

export type { CompiledPattern } from "./compiled-pattern.ts";

/** Patterns are literals in rulesets, but requests can bring their own; this bounds the memo. */
const MAX_REMEMBERED_PATTERNS = 4096;

/** Each distinct pattern is checked and compiled once; refusals are remembered too. */
const rememberedPatterns = new Map<string, BackendPattern>();

/** Compiles a portable pattern; throws EvaluationError when it is not portable. */
export function compilePattern(pattern: string): CompiledPattern {
  const remembered = rememberedPatterns.get(pattern) ?? remember(pattern, compileFresh(pattern));
  if ("refusal" in remembered) return fail(remembered.refusal);
  return remembered;
}

function compileFresh(pattern: string): BackendPattern {
  const check = checkPortablePattern(pattern);
  if (!check.ok) return { refusal: `pattern ${JSON.stringify(pattern)} is not portable: ${check.reason}` };
  if (check.linear) return new JavaScriptPattern(check.javaScriptSource);
  return compileGeneralPattern(pattern, check);
}

function remember(pattern: string, entry: BackendPattern): BackendPattern {
  if (rememberedPatterns.size >= MAX_REMEMBERED_PATTERNS) {
    const oldest = rememberedPatterns.keys().next();
    if (!oldest.done) rememberedPatterns.delete(oldest.value);
  }
  rememberedPatterns.set(pattern, entry);
  return entry;
}
