import type { Atom, Term } from "./pattern-syntax.ts";

/*
 * The linear subset. Most patterns in rulesets check a whole field's format: `^`, then characters
 * or sets with counts, then `$`. A backtracking engine matches such a pattern, anchored at the
 * start, with at most one choice point (the one term whose count can vary); for each count it
 * tries, the rest is a fixed-length check. So the work is at most (subject length + 1) × (fixed
 * length), which is bounded by keeping the fixed length at MAX_LINEAR_FIXED_LENGTH. Anything else
 * (alternation, a second variable count, no leading `^`) goes to RE2.
 */
const MAX_LINEAR_FIXED_LENGTH = 64;

export function isLinearSubset(alternatives: readonly Term[][]): boolean {
  if (alternatives.length !== 1) return false;
  const terms = alternatives[0]!;
  if (terms[0]?.kind !== "start") return false;
  const endAnchored = terms.length > 1 && terms[terms.length - 1]!.kind === "end";
  const body = terms.slice(1, endAnchored ? -1 : undefined);
  let variableTerms = 0;
  let fixedLength = 0;
  for (const term of body) {
    if (term.kind === "start" || term.kind === "end") return false;
    const atom = term.kind === "repeat" ? term.atom : term;
    const atomLength = fixedAtomLength(atom);
    if (atomLength === undefined) return false;
    const min = term.kind === "repeat" ? term.min : 1;
    const max = term.kind === "repeat" ? term.max : 1;
    if (min !== max) variableTerms++;
    else fixedLength += atomLength * min;
    if (variableTerms > 1 || fixedLength > MAX_LINEAR_FIXED_LENGTH) return false;
  }
  return true;
}

/** Code points an atom always matches: 1 for a character or set, the sum for a group of such; undefined otherwise. */
function fixedAtomLength(atom: Atom): number | undefined {
  if (atom.kind !== "group") return 1;
  if (atom.alternatives.length !== 1) return undefined;
  let length = 0;
  for (const term of atom.alternatives[0]!) {
    if (term.kind === "start" || term.kind === "end") return undefined;
    const inner = term.kind === "repeat" ? term.atom : term;
    if (inner.kind === "group") return undefined;
    if (term.kind === "repeat" && term.min !== term.max) return undefined;
    length += term.kind === "repeat" ? term.min : 1;
  }
  return length;
}
