/**
 * The pattern backend of the browser build, which build.ts puts in place of re2-pattern-backend.ts:
 * every portable pattern runs on the page's own JavaScript engine, with the answers RE2 gives and
 * nothing to fetch. Outside the linear subset a backtracking engine can take longer than linear
 * time on some patterns; in a browser the subject is the user's own input, so that cost stays in
 * the user's own tab, while the server, which takes anyone's input, keeps RE2.
 */
import type { BackendPattern } from "./compiled-pattern.ts";
import { JavaScriptPattern } from "./javascript-pattern.ts";

export function compileGeneralPattern(
  _pattern: string,
  source: { readonly re2Source: string; readonly javaScriptSource: string },
): BackendPattern {
  return new JavaScriptPattern(source.javaScriptSource);
}
