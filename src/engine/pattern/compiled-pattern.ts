import { fail } from "../errors.ts";

/** A portable pattern ready to run, whichever engine runs it. */
export interface CompiledPattern {
  /** Unanchored search; throws EvaluationError when the subject has more than 10000 code points. */
  test(subject: string): boolean;
}

/**
 * What a pattern backend gives for a pattern outside the linear subset: a compiled pattern, or
 * the reason it cannot be compiled (the matcher remembers refusals too).
 */
export type BackendPattern = CompiledPattern | { refusal: string };

const MAX_SUBJECT_CODE_POINTS = 10000;

/** Refuses a subject of more than 10000 code points (specification 4.7). */
export function checkSubjectLength(subject: string): void {
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
 * A lone surrogate becomes U+FFFD, as in the pattern: both engines then see the same well-formed
 * text (re2-wasm's UTF-8 encoder would otherwise fuse it with the next character).
 */
export function wellFormed(subject: string): string {
  // ES2024's isWellFormed answers without a regular expression or a copy; engines without it
  // (older browsers) take the replacement, which gives the same text.
  if ((subject as string & { isWellFormed?: () => boolean }).isWellFormed?.() === true) return subject;
  return subject.replace(LONE_SURROGATE, "\uFFFD");
}

const LONE_SURROGATE = /\p{Cs}/gu;
