/**
 * The pattern backend of the server and the command line: RE2 (re2-wasm), which matches every
 * portable pattern in time linear in the subject, whoever wrote the subject. This module is the
 * seam between engines: the browser build puts javascript-pattern-backend.ts in its place
 * (build.ts), and nothing else in the engine knows which one runs.
 */
import type { RE2 } from "re2-wasm";
import { fail } from "../errors.ts";
import { checkSubjectLength, wellFormed, type BackendPattern, type CompiledPattern } from "./compiled-pattern.ts";

/*
 * re2-wasm keeps every compiled expression, and the DFA states it builds while matching, in a
 * fixed 16 MiB WebAssembly heap that garbage collection never frees; a full heap aborts the module
 * for good. So memory is bounded by hand: at most MAX_LIVE_EXPRESSIONS are kept compiled (the
 * oldest is freed, and recompiled when used again), and an expression is freed once it has scanned
 * FREE_AFTER_SCANNING UTF-16 units, since RE2 may add a DFA state for each byte it reads.
 * Recompiling a typical pattern takes about 50 µs, so this costs little. Without these bounds the
 * module aborted after about 3400 distinct patterns, or after a few dozen large ones (a literal of
 * 1000 astral characters alone builds megabytes of DFA states on one long subject).
 */
const MAX_LIVE_EXPRESSIONS = 32;
const FREE_AFTER_SCANNING = 1024;

/*
 * re2-wasm compiles and starts its WebAssembly module as soon as it is imported, which takes about
 * a tenth of a second, in the server and in every worker. Most rulesets only hold patterns of the
 * linear subset, which never come here, so the module is loaded when the first other pattern is
 * compiled. Loading differs from the browser build's backend anyway: this file is the seam.
 */
let re2Class: typeof RE2 | undefined;

/** The loader of the runtime this backend runs on (Bun), declared here for type-checks without Node's types. */
declare const require: (module: "re2-wasm") => typeof import("re2-wasm");

function loadRe2(): typeof RE2 {
  return (re2Class ??= require("re2-wasm").RE2);
}

/**
 * A pattern is a pure function of its subject, and short subjects (country codes, IBANs,
 * currency codes) recur constantly: each pattern remembers its last answers for them, which
 * spares the round trip into WebAssembly and the RE2 scanning that leads to recompiles.
 */
const MAX_REMEMBERED_SUBJECT = 64;
const MAX_REMEMBERED_ANSWERS = 512;

/** The patterns that hold a compiled expression, oldest first. */
const liveExpressions = new Set<Re2Pattern>();

/**
 * Set once the module has failed other than by refusing a pattern (in practice, aborted on a full
 * heap). Its state can no longer be trusted, so every later match fails closed.
 */
let engineFailure: string | undefined;

/** Runs a backend call; a failure other than a refused pattern condemns the engine. */
function onEngine<T>(call: () => T): T {
  if (engineFailure !== undefined) fail(`the pattern engine failed earlier: ${engineFailure}`);
  try {
    return call();
  } catch (error) {
    if (!(error instanceof SyntaxError)) engineFailure = messageOf(error);
    throw error;
  }
}

/** Compiles a pattern outside the linear subset; throws EvaluationError once the engine has failed. */
export function compileGeneralPattern(
  pattern: string,
  source: { readonly re2Source: string; readonly javaScriptSource: string },
): BackendPattern {
  const named = `pattern ${JSON.stringify(pattern)}`;
  const compiled = new Re2Pattern(pattern, source.re2Source);
  try {
    onEngine(() => compiled.expression());
  } catch (error) {
    if (engineFailure !== undefined) fail(`${named} cannot be compiled: ${engineFailure}`);
    return { refusal: `${named} cannot be compiled: ${messageOf(error)}` };
  }
  return compiled;
}

class Re2Pattern implements CompiledPattern {
  private compiled: RE2 | undefined;
  /** UTF-16 units scanned since the expression was compiled. */
  private scanned = 0;
  /** Answers for recent short subjects. */
  private readonly answers = new Map<string, boolean>();

  constructor(
    private readonly pattern: string,
    private readonly re2Source: string,
  ) {}

  test(subject: string): boolean {
    checkSubjectLength(subject);
    const remembered = subject.length <= MAX_REMEMBERED_SUBJECT ? this.answers.get(subject) : undefined;
    if (remembered !== undefined) return remembered;
    try {
      const answer = onEngine(() => this.expression().test(wellFormed(subject)));
      if (subject.length <= MAX_REMEMBERED_SUBJECT) {
        if (this.answers.size >= MAX_REMEMBERED_ANSWERS) this.answers.clear();
        this.answers.set(subject, answer);
      }
      return answer;
    } catch (error) {
      const named = `pattern ${JSON.stringify(this.pattern)}`;
      return fail(`${named} could not be matched: ${messageOf(error)}`);
    } finally {
      this.scanned += subject.length;
      if (this.scanned > FREE_AFTER_SCANNING) this.free();
    }
  }

  /** The compiled expression, compiling it again if it was freed. */
  expression(): RE2 {
    if (this.compiled !== undefined) return this.compiled;
    if (liveExpressions.size >= MAX_LIVE_EXPRESSIONS) {
      const oldest = liveExpressions.values().next();
      if (!oldest.done) oldest.value.free();
    }
    // Flag "u" is required by re2-wasm; (?s) in the source makes `.` match line breaks.
    this.compiled = new (loadRe2())(this.re2Source, "u");
    liveExpressions.add(this);
    return this.compiled;
  }

  private free(): void {
    liveExpressions.delete(this);
    const compiled = this.compiled;
    this.compiled = undefined;
    this.scanned = 0;
    // re2-wasm has no public way to free an expression; its embind object does.
    const embind = compiled as unknown as { wrapper?: { delete?: () => void } } | undefined;
    try {
      embind?.wrapper?.delete?.();
    } catch {
      // Only an aborted module refuses, and then every later call fails closed anyway.
    }
  }
}

/** The first line of an error's message: an aborted module adds its whole stack trace. */
function messageOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n", 1)[0] ?? message;
}
