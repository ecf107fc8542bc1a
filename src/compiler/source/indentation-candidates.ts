import { holdsContent, leadOf, levelsOf } from "./indented-lines.ts";

/**
 * Where a slip may be and where it may go: the lines near the parser's first error that may have
 * slipped, the indentations in use around a line, and the text with a line (and the block under
 * it) moved. No parsing here: each candidate is parsed by the search (yaml-indentation.ts).
 */

const MAX_SUSPECTS = 8;

/**
 * The lines that may have slipped, likeliest first: the line the parser stopped at and the three
 * after it, the line before it, then the heads of the blocks above it up to its parent, and the
 * first of each run of lines alike in indentation there (`data:` indented as far as its members).
 */
export function suspectLines(lines: readonly string[], line: number): number[] {
  const content = (at: number): boolean => holdsContent(lines[at - 1] ?? "");
  const suspects: number[] = [];
  const suspect = (at: number): void => {
    if (!suspects.includes(at) && suspects.length < MAX_SUSPECTS) suspects.push(at);
  };
  for (let at = line; at <= lines.length && suspects.length < 4; at++) if (content(at)) suspect(at);
  const lead = leadOf(lines[line - 1] ?? "").length;
  let shallowest = Number.POSITIVE_INFINITY;
  let runHead: number | undefined;
  for (let at = line - 1; at >= 1 && shallowest >= lead; at--) {
    const indent = leadOf(lines[at - 1] ?? "").length;
    if (!content(at) || indent > shallowest) continue;
    if (indent === shallowest) {
      runHead = at;
      continue;
    }
    // Deeper blocks above are whole; only lines about as shallow as the stopped one may have slipped out of place.
    if (runHead !== undefined && shallowest <= lead + 2) suspect(runHead);
    runHead = undefined;
    if (shallowest === Number.POSITIVE_INFINITY || indent <= lead + 2) suspect(at);
    shallowest = indent;
  }
  return suspects;
}

/**
 * The indentations in use around the line: each shallower level above it, one deeper than the line
 * above, and those of the two lines below. The text's first line sets the margin: a text is never
 * meant indented as a whole, so that line may only move to it.
 */
export function levelsNear(lines: readonly string[], line: number): number[] {
  const lead = leadOf(lines[line - 1] ?? "");
  if (lines.findIndex(holdsContent) === line - 1) return lead === "" ? [] : [0];
  const levels = new Set<number>();
  let shallowest = Number.POSITIVE_INFINITY;
  let above: string | undefined;
  for (let index = line - 2; index >= 0 && shallowest > 0; index--) {
    const text = lines[index] ?? "";
    if (!holdsContent(text)) continue;
    above ??= text;
    const found = levelsOf(text);
    if ((found[0] ?? 0) >= shallowest) continue;
    for (const level of found) levels.add(level);
    shallowest = found[0] ?? 0;
  }
  if (above !== undefined) levels.add(Math.max(...levelsOf(above)) + 2);
  let seen = 0;
  for (let index = line; index < lines.length && seen < 2; index++) {
    const text = lines[index] ?? "";
    if (!holdsContent(text)) continue;
    seen++;
    for (const level of levelsOf(text)) levels.add(level);
  }
  // A tab in the indentation is wrong at any width, so the line's own width is tried too.
  if (!lead.includes("\t")) levels.delete(lead.length);
  return [...levels];
}

/** Levels grouped by how far they are from `lead`, nearest first. */
export function byDistance(levels: readonly number[], lead: number): number[][] {
  const groups = new Map<number, number[]>();
  for (const level of [...levels].sort((a, b) => a - b))
    groups.set(Math.abs(level - lead), [...(groups.get(Math.abs(level - lead)) ?? []), level]);
  return [...groups.entries()].sort(([a], [b]) => a - b).map(([, group]) => group);
}

/** The 0-based indexes of the lines under a line: those after it indented deeper, up to the first that is not. */
export function blockUnder(lines: readonly string[], line: number): number[] {
  const lead = leadOf(lines[line - 1] ?? "").length;
  const block: number[] = [];
  for (let index = line; index < lines.length; index++) {
    const text = lines[index] ?? "";
    if (!holdsContent(text)) continue;
    if (leadOf(text).length <= lead) break;
    block.push(index);
  }
  return block;
}

/** The lines with `line` indented `to` spaces and the block under it moved as far; undefined when a line would go left of the margin. */
export function shifted(
  lines: readonly string[],
  line: number,
  to: number,
  block: readonly number[],
): string[] | undefined {
  const mended = [...lines];
  const text = lines[line - 1] ?? "";
  const shift = to - leadOf(text).length;
  mended[line - 1] = " ".repeat(to) + text.trimStart();
  for (const index of block) {
    const under = lines[index] ?? "";
    const lead = leadOf(under).length + shift;
    if (lead < 0) return undefined;
    mended[index] = " ".repeat(lead) + under.trimStart();
  }
  return mended;
}

/** Whether a line is indented deeper than the line above it, as text going on from there is. */
export function continuesAbove(lines: readonly string[], line: number): boolean {
  for (let at = line - 1; at >= 1; at--) {
    if (holdsContent(lines[at - 1] ?? ""))
      return leadOf(lines[line - 1] ?? "").length > leadOf(lines[at - 1] ?? "").length;
  }
  return false;
}

/**
 * The lines with a colon after the first word of `line`, when the line looks like a key that lost
 * its colon: a word, then one word, quoted text or a flow collection (`type string`,
 * `- ruleset acme.payments`), or any text after a word the text uses as a key elsewhere
 * (`description Amount in the transfer currency.`). Undefined for any other line.
 */
export function withColonAfterFirstWord(
  lines: readonly string[],
  line: number,
  keys: ReadonlySet<string>,
): string[] | undefined {
  const text = lines[line - 1] ?? "";
  const column = Math.max(...levelsOf(text));
  const written = /^([A-Za-z_$/][\w$./-]*)[ \t]+([^\s#].*?)[ \t]*(?:\s#.*)?\r?$/.exec(text.slice(column));
  const [, key, rest] = written ?? [];
  if (key === undefined || rest === undefined) return undefined;
  if (!keys.has(key) && !/^(?:"[^"]*"|'[^']*'|\[.*\]|\{.*\}|\S+)$/.test(rest)) return undefined;
  const mended = [...lines];
  mended[line - 1] = `${text.slice(0, column)}${key}:${text.slice(column + key.length)}`;
  return mended;
}
