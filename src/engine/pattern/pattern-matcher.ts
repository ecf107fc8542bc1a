/**
 * Runs portable patterns (specification 4.4) in time linear in the subject: RE2 in general, and
 * the JavaScript engine for the linear subset of format checks, which it provably matches in
 * linear time too (portable-pattern.ts) and which is most of what rulesets hold. This is the only
 * file that knows the backends, so that a browser build can swap them.
 */

import { RE2 } from "re2-wasm";
import { fail } from "../errors.ts";
import { checkPortablePattern } from "./portable-pattern.ts";

export interface CompiledPattern {
  /** Unanchored search; throws EvaluationError when the subject has more than 10000 code points. */
  test(subject: string): boolean;
}

const MAX_SUBJECT_CODE_POINTS = 10000;

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

/**
 * A pattern is a pure function of its subject, and short subjects (country codes, IBANs,
 * currency codes) recur constantly: each pattern remembers its last answers for them, which
 * spares the round trip into WebAssembly and the RE2 scanning that leads to recompiles.
 */
const MAX_REMEMBERED_SUBJECT = 64;
const MAX_REMEMBERED_ANSWERS = 512;

/** Patterns are literals in rulesets, but requests can bring their own; this bounds the memo. */
const MAX_REMEMBERED_PATTERNS = 4096;

type Remembered = Re2Pattern | LinearPattern | { refusal: string };

/** Each distinct pattern is checked and compiled once; refusals are remembered too. */
const rememberedPatterns = new Map<string, Remembered>();

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

/** Compiles a portable pattern; throws EvaluationError when it is not portable. */
export function compilePattern(pattern: string): CompiledPattern {
  const remembered = rememberedPatterns.get(pattern) ?? remember(pattern, compileFresh(pattern));
  if ("refusal" in remembered) return fail(remembered.refusal);
  return remembered;
}

function compileFresh(pattern: string): Remembered {
  const check = checkPortablePattern(pattern);
  const named = `pattern ${JSON.stringify(pattern)}`;
  if (!check.ok) return { refusal: `${named} is not portable: ${check.reason}` };
  if (check.linearSource !== undefined) return new LinearPattern(new RegExp(check.linearSource, "su"));
  const compiled = new Re2Pattern(pattern, check.re2Source);
  try {
    onEngine(() => compiled.expression());
  } catch (error) {
    if (engineFailure !== undefined) fail(`${named} cannot be compiled: ${engineFailure}`);
    return { refusal: `${named} cannot be compiled: ${messageOf(error)}` };
  }
  return compiled;
}

function remember(pattern: string, entry: Remembered): Remembered {
  if (rememberedPatterns.size >= MAX_REMEMBERED_PATTERNS) {
    const oldest = rememberedPatterns.keys().next();
    if (!oldest.done) rememberedPatterns.delete(oldest.value);
  }
  rememberedPatterns.set(pattern, entry);
  return entry;
}

/**
 * A pattern of the linear subset (portable-pattern.ts), run by the JavaScript engine: it gives the
 * answers RE2 gives, in time linear in the subject, without a call into WebAssembly or any of its
 * heap. Most format checks (IBANs, codes, identifiers) are of this kind.
 */
class LinearPattern implements CompiledPattern {
  constructor(private readonly expression: RegExp) {}

  test(subject: string): boolean {
    checkSubjectLength(subject);
    return this.expression.test(wellFormed(subject));
  }
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
    this.compiled = new RE2(this.re2Source, "u");
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

/** Refuses a subject of more than 10000 code points (specification 4.7). */
function checkSubjectLength(subject: string): void {
  // Most subjects are short: fewer UTF-16 units than the limit means fewer code points.
  if (subject.length <= MAX_SUBJECT_CODE_POINTS) return;
  let codePoints = subject.length;
  if (codePoints <= 2 * MAX_SUBJECT_CODE_POINTS) {
    for (let index = 0; index < subject.length - 1; index++) {
      const unit = subject.charCodeAt(index);
      const next = subject.charCodeAt(index + 1);
      if (unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        codePoints--;
        index++;
      }
    }
  }
  if (codePoints > MAX_SUBJECT_CODE_POINTS) {
    fail(`the subject of a pattern has more than ${MAX_SUBJECT_CODE_POINTS} code points`);
  }
}

/**
 * A lone surrogate becomes U+FFFD, as in the pattern. re2-wasm's UTF-8 encoder would otherwise
 * fuse it with the next character.
 */
function wellFormed(subject: string): string {
  return subject.replace(/\p{Cs}/gu, "\uFFFD");
}

/** The first line of an error's message: an aborted module adds its whole stack trace. */
function messageOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n", 1)[0] ?? message;
}
