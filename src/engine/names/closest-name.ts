/**
 * "Did you mean": the known name closest to a misspelt one, when it is close enough to be a
 * likely typo. Distance is the optimal string alignment distance (insertions, deletions,
 * substitutions and swaps of neighbours each cost one), so `lt3` is one step from `lt` and
 * `tierr` one from `tier`.
 */

/** Edit distance between two names, or a number above `limit` once it is sure to exceed it. */
function editDistance(a: string, b: string, limit = Infinity): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowBest = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, beforePrevious[j - 2]! + 1);
      current.push(best);
      rowBest = Math.min(rowBest, best);
    }
    if (rowBest > limit) return limit + 1;
    beforePrevious = previous;
    previous = current;
  }
  return previous[b.length]!;
}

/** How far a name may be from a known one: a third of its length, at least one and at most three. */
function allowedDistance(name: string): number {
  return Math.max(1, Math.min(3, Math.floor(name.length / 3)));
}

/**
 * The known name closest to `name` within the allowed distance (ties go to the first); failing
 * that, the one known name it abbreviates (`warn` for `warning`); or undefined.
 */
export function closestName(name: string, known: Iterable<string>): string | undefined {
  const limit = allowedDistance(name);
  let best: string | undefined;
  let bestDistance = limit + 1;
  const abbreviated = new Set<string>();
  for (const candidate of known) {
    if (candidate === name) continue;
    const folded = candidate.toLowerCase() === name.toLowerCase() ? 0.5 : editDistance(name, candidate, limit);
    if (folded < bestDistance) {
      best = candidate;
      bestDistance = folded;
    }
    if (name.length >= MIN_ABBREVIATION && candidate.toLowerCase().startsWith(name.toLowerCase()))
      abbreviated.add(candidate);
  }
  return best ?? (abbreviated.size === 1 ? [...abbreviated][0] : undefined);
}

/** The shortest name taken for an abbreviation: shorter ones start too many names to mean one. */
const MIN_ABBREVIATION = 3;

/** `: did you mean \`X\`?` for a close known name, or "" when there is none. */
export function didYouMean(name: string, known: Iterable<string>): string {
  return suggesting(closestName(name, known));
}

/** `: did you mean \`X\`?` for a name found another way (an alias), or "" for none. */
export function suggesting(name: string | undefined): string {
  return name === undefined ? "" : `: did you mean \`${name}\`?`;
}

/** The name a message's "did you mean" (as didYouMean writes it) suggests, for tools that offer it as a fix. */
export function suggestedName(message: string): string | undefined {
  return SUGGESTION.exec(message)?.[1];
}

const SUGGESTION = /did you mean `([^`]+)`\?/;
