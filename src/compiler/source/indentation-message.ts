import { holdsContent, kindAt, leadOf, levelsOf, nameAt } from "./indented-lines.ts";

/** A mis-indented line and the indentation at which the text reads. */
export interface IndentationFix {
  /** 1-based. */
  readonly line: number;
  /** Where it reads: one indentation, or two as near as each other (it belongs with one of them). */
  readonly to: readonly number[];
  /** How many lines under it move with it (0: the line alone). */
  readonly under: number;
}

/**
 * What is wrong with the line's indentation and what to do, in the author's terms: the line by
 * its key, and a neighbour already indented as it should be (the sibling above, else below).
 */
export function indentationMessage(lines: readonly string[], fix: IndentationFix): string {
  const text = lines[fix.line - 1] ?? "";
  const lead = leadOf(text);
  const tab = lead.includes("\t");
  const name = nameAt(text);
  const now = tab
    ? `${name} is indented with a tab, and YAML indents with spaces only`
    : `${name} is ${indented(lead.length)}`;
  const [to = 0, other] = fix.to;
  if (kindAt(text) === "text") return continuationMessage(lines, fix.line, now, to);
  if (other !== undefined) {
    const [first, second] = [siblingOf(lines, fix.line, to), siblingOf(lines, fix.line, other)];
    if (first === undefined || second === undefined)
      return `${now}: indent it ${to} or ${other} spaces, whichever level it belongs to`;
    return `${now}, between ${first.name} (line ${first.line}, ${spaces(to)}) and ${second.name} (line ${second.line}, ${spaces(other)}): indent it like the one it belongs with`;
  }
  const shift = to - lead.length;
  const under =
    fix.under === 0
      ? ""
      : `, and move the ${fix.under === 1 ? "line" : `${fix.under} lines`} under it ${spaces(Math.abs(shift))} ${shift < 0 ? "left" : "right"} with it`;
  const sibling = siblingOf(lines, fix.line, to);
  if (sibling === undefined) return `${now}, ${misfit(lines, fix.line, to)}: ${placeAt(to)}${under}`;
  const where = `${sibling.name} ${sibling.where} it (line ${sibling.line})`;
  if (tab) return `${now}: ${placeAt(to)}, like ${where}${under}`;
  return `${now} but ${where} is ${indented(to, "")}: ${to === 0 ? "start it at the beginning of the line" : "indent it"} like ${sibling.name}${under}`;
}

/**
 * Why the line does not fit when nothing beside it shows its level: an item whose members below
 * are out of line with its first one, else the line it belongs under.
 */
function misfit(lines: readonly string[], line: number, to: number): string {
  const text = lines[line - 1] ?? "";
  const [lead = 0, inner] = levelsOf(text);
  const member = inner === undefined ? undefined : siblingOf(lines, line, to + inner - lead);
  if (member?.where === "below")
    return `which puts ${nameAt(text, inner)} out of line with ${member.name} below it (line ${member.line})`;
  for (let index = line - 2; index >= 0; index--) {
    const above = lines[index] ?? "";
    if (holdsContent(above) && leadOf(above).length < to)
      return `which does not fit under ${nameAt(above, Math.max(...levelsOf(above).filter((level) => level < to)))} (line ${index + 1})`;
  }
  return "which does not fit the lines around it";
}

/** A line of text only reads as more of the value above it (a multi-line scalar): said so, with the colon it may lack. */
function continuationMessage(lines: readonly string[], line: number, now: string, to: number): string {
  let owner: { line: number; name: string } | undefined;
  for (let index = line - 2; index >= 0 && owner === undefined; index--) {
    const text = lines[index] ?? "";
    if (holdsContent(text) && leadOf(text).length < to)
      owner = { line: index + 1, name: nameAt(text, Math.max(...levelsOf(text).filter((level) => level < to))) };
  }
  const like = siblingOf(lines, line, to);
  const continued = `to continue that value, ${placeAt(to)}${like?.where === "above" ? `, like line ${like.line}` : ""}`;
  // One or two words alone on a line are likelier a key without its colon (`severity error`).
  const key = /^[^\s:#]+(?:\s+[^\s:#]+)?$/.test((lines[line - 1] ?? "").trim())
    ? "; if it is meant as a key, it lacks a `:`"
    : "";
  return owner === undefined
    ? `${now}: ${continued}${key}`
    : `${now}, which ends the value of ${owner.name} (line ${owner.line}): ${continued}${key}`;
}

/**
 * The nearest line with a member at `column` in the same collection: above, through deeper lines up
 * to the first shallower one (whose item may start the collection), else below up to the first shallower one.
 */
function siblingOf(
  lines: readonly string[],
  line: number,
  column: number,
): { line: number; name: string; where: "above" | "below" } | undefined {
  for (let index = line - 2; index >= 0; index--) {
    const text = lines[index] ?? "";
    if (!holdsContent(text)) continue;
    const levels = levelsOf(text);
    if (levels.includes(column)) return { line: index + 1, name: nameAt(text, column), where: "above" };
    if ((levels[0] ?? 0) < column) break;
  }
  for (let index = line; index < lines.length; index++) {
    const text = lines[index] ?? "";
    if (!holdsContent(text)) continue;
    const indent = leadOf(text).length;
    if (indent === column) return { line: index + 1, name: nameAt(text), where: "below" };
    if (indent < column) break;
  }
  return undefined;
}

function placeAt(to: number): string {
  return to === 0 ? "start it at the beginning of the line" : `indent it ${spaces(to)}`;
}

function indented(columns: number, unit = " spaces"): string {
  if (columns === 0) return "not indented";
  return columns === 1 && unit !== "" ? "indented 1 space" : `indented ${columns}${unit}`;
}

function spaces(count: number): string {
  return count === 1 ? "1 space" : `${count} spaces`;
}
