import { holdsContent, kindAt, leadOf, levelsOf } from "./indented-lines.ts";

/**
 * How likely a re-indented text is what the author meant, when several readings parse: lower is
 * likelier, compared in order. Parser errors left; keys left without a value next to the moved line (`finding:` with its members
 * beside it instead of under it: rulesets hardly ever mean an empty value); lines that are
 * indented from their parent by other than the text's usual step (`op:` moved to 7 beside `args:`
 * at 6 fixes nothing a reader would call fixed); keys beside the moved line's key that stand beside
 * it nowhere else in the text (`actor:` moved in among a test's `data` members).
 */
export type Likelihood = readonly [errorsLeft: number, emptyValues: number, irregularSteps: number, strangers: number];

/** The lines whose steps are weighed (1-based, inclusive) and the text's usual step. */
export interface Stretch {
  readonly from: number;
  readonly to: number;
  readonly step: number;
}

export function likelihoodOf(
  lines: readonly string[],
  line: number,
  stretch: Stretch,
  reading: { errorsLeft: number; strangers: number },
): Likelihood {
  const steps = stepsOf(lines);
  let irregular = 0;
  for (let at = stretch.from; at <= stretch.to; at++)
    if (steps[at - 1] !== undefined && steps[at - 1] !== stretch.step) irregular++;
  return [reading.errorsLeft, emptyValuesAround(lines, line), irregular, reading.strangers];
}

export function compareLikelihood(a: Likelihood, b: Likelihood): number {
  return a.reduce((order, count, index) => order || count - (b[index] ?? 0), 0);
}

/** Nothing left to report, empty, irregular or strange: no other reading can be likelier. */
export function isCertain(likelihood: Likelihood): boolean {
  return likelihood.every((count) => count === 0);
}

/** The step most lines are indented by from their parent; of steps as common, the nearest to 2 (the most written). */
export function usualStep(lines: readonly string[]): number {
  const counts = new Map<number, number>();
  for (const step of stepsOf(lines)) if (step !== undefined) counts.set(step, (counts.get(step) ?? 0) + 1);
  return (
    [...counts.entries()].sort(
      ([stepA, a], [stepB, b]) => b - a || Math.abs(stepA - 2) - Math.abs(stepB - 2) || stepA - stepB,
    )[0]?.[0] ?? 2
  );
}

/**
 * Each line's indentation less its parent's (the deepest level opened above it that is shallower),
 * undefined for lines without content or at the margin. One pass, with the open levels on a stack.
 */
function stepsOf(lines: readonly string[]): (number | undefined)[] {
  const open: number[] = [];
  return lines.map((text) => {
    if (!holdsContent(text)) return undefined;
    const lead = leadOf(text).length;
    while (open.length > 0 && (open[open.length - 1] ?? 0) >= lead) open.pop();
    const parent = open[open.length - 1];
    open.push(...levelsOf(text));
    return parent === undefined ? undefined : lead - parent;
  });
}

/** Keys without a value on the line and the content lines next to it. */
function emptyValuesAround(lines: readonly string[], line: number): number {
  const next = (from: number, step: number): number | undefined => {
    for (let at = from + step; at >= 1 && at <= lines.length; at += step)
      if (holdsContent(lines[at - 1] ?? "")) return at;
    return undefined;
  };
  const isEmpty = (at: number): boolean => {
    const text = lines[at - 1] ?? "";
    if (kindAt(text) === "text" || !/:[ \t]*(?:#.*)?\r?$/.test(text)) return false;
    const column = Math.max(...levelsOf(text));
    const after = next(at, 1);
    if (after === undefined) return true;
    const lead = leadOf(lines[after - 1] ?? "").length;
    // A sequence may stand at its key's own indentation.
    return lead < column || (lead === column && kindAt(lines[after - 1] ?? "") !== "item");
  };
  return [next(line, -1), line, next(line, 1)].filter((at): at is number => at !== undefined && isEmpty(at)).length;
}
