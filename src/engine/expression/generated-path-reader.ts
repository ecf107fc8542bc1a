import { Decimal } from "../number/decimal.ts";
import type { Value } from "../value/value-kind.ts";
import { sharedGeneratedFunction } from "./generated-code.ts";
import type { RootName, Scope } from "./scope.ts";
import type { PathSegment } from "./variable-reference.ts";

/**
 * Variable reads compiled to JavaScript, one function per distinct path. Every rule reads its
 * data through paths, and a single shared reader sees every key and object shape of every rule,
 * so its property lookups cannot be cached and dominate evaluation; a function of its own per
 * path gets a lookup the JIT caches for that key. The generated code follows readPath step for
 * step (the golden corpora run both), and a host that must not generate code (a page whose
 * Content-Security-Policy forbids `eval`) keeps the closures by not asking for it. Each distinct
 * path is compiled once (generated-code.ts).
 */
export type ScopeReader = (scope: Scope) => Value;
export type ValueReader = (start: Value) => Value;

/** A reader of `root.path` from a scope, or undefined when the platform refuses generated code. */
export function generatedScopeReader(root: RootName, segments: readonly PathSegment[]): ScopeReader | undefined {
  return generated(`scope.${root}`, segments) as ScopeReader | undefined;
}

/** A reader of a path below a value (a field pointer from the working data), or undefined likewise. */
export function generatedValueReader(segments: readonly PathSegment[]): ValueReader | undefined {
  return generated("", segments) as ValueReader | undefined;
}

function generated(root: string, segments: readonly PathSegment[]): ScopeReader | ValueReader | undefined {
  const key = JSON.stringify(["path", root, ...segments.map((segment) => segment.key)]);
  return sharedGeneratedFunction<ScopeReader | ValueReader>(
    key,
    ["Decimal", "hasOwn"],
    () => readerSource(root, segments),
    [Decimal, Object.hasOwn],
  );
}

/**
 * The body of a factory that returns the reader. Keys and indexes are written as literals (a
 * JSON string is a JavaScript string literal), so the code holds nothing but the path.
 */
function readerSource(root: string, segments: readonly PathSegment[]): string {
  const lines = root === "" ? ["return (v) => {"] : ["return (scope) => {", `let v = ${root};`];
  for (const segment of segments) {
    const key = JSON.stringify(segment.key);
    // A member read through the prototype is a function or, under __proto__, the prototype itself.
    const inherited =
      segment.key === "__proto__" ? `!hasOwn(v, ${key})` : `typeof m === "function" && !hasOwn(v, ${key})`;
    // isDecimal written out: an `instanceof` of its own caches the layouts this path meets.
    const member = `if (v instanceof Decimal) return null; const m = v[${key}]; if (m === undefined || (${inherited})) return null; v = m;`;
    lines.push(`if (v === null || typeof v !== "object") return null;`);
    if (segment.index < 0) lines.push(`if (Array.isArray(v)) return null;`, `{ ${member} }`);
    else
      lines.push(
        `if (Array.isArray(v)) { if (${segment.index} >= v.length) return null; v = v[${segment.index}]; }`,
        `else { ${member} }`,
      );
  }
  lines.push("return v;", "};");
  return lines.join("\n");
}
