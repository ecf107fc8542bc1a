import type { Document } from "yaml";
import {
  compareLikelihood,
  isCertain,
  likelihoodOf,
  usualStep,
  type Likelihood,
  type Stretch,
} from "./indentation-likelihood.ts";
import { indentationMessage, type IndentationFix } from "./indentation-message.ts";
import { readingOf, TrialBudget, type ParseError, type ParseYaml, type TrialReading } from "./indentation-trial.ts";
import {
  blockUnder,
  byDistance,
  continuesAbove,
  levelsNear,
  shifted,
  suspectLines,
  withColonAfterFirstWord,
} from "./indentation-candidates.ts";
import { kindAt, leadOf, textLines } from "./indented-lines.ts";

export type { ParseYaml } from "./indentation-trial.ts";

/** A line whose indentation keeps the YAML from reading, and what to do about it (1-based line and column). */
export interface IndentationSlip {
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

export interface MendedIndentation {
  readonly slips: readonly IndentationSlip[];
  /** The text with each slip re-indented as its message says: what the author meant, as far as can be told. */
  readonly text: string;
  /** A column of the mended text as a column of the original text (only re-indented lines differ). */
  originalColumn(line: number, column: number): number;
}

/**
 * The lines whose indentation keeps `text` (parsed as `documents`) from reading, or undefined.
 * The parser stops where a slip leaves it lost, often a line away from the slip (a value it read
 * on into the slipped line), and reports what follows too. So from its first error, the lines
 * near it are re-indented to the levels around them and the text parsed again: a slip is a line
 * whose re-indenting removes that error and adds none, the likeliest when several do. The errors
 * it removes are not reported apart; the search goes on from the next error left, if any.
 */
export function mendIndentation(
  text: string,
  documents: readonly Document.Parsed[],
  parse: ParseYaml,
): MendedIndentation | undefined {
  const budget = new TrialBudget(parse);
  let lines = textLines(text);
  let reading: Reading = readingOf(documents, lines);
  const slips: IndentationSlip[] = [];
  const leads = new Map<number, { original: number; mended: number }>();
  while (reading.errors.length > 0 && slips.length < MAX_SLIPS) {
    const found = findSlip(lines, reading, budget);
    if (found === undefined) break;
    const lead = leadOf(lines[found.fix.line - 1] ?? "");
    slips.push({
      line: found.fix.line,
      column: lead.includes("\t") ? lead.indexOf("\t") + 1 : lead.length + 1,
      message: indentationMessage(lines, found.fix),
    });
    found.lines.forEach((mended, index) => {
      if (mended === lines[index]) return;
      leads.set(index + 1, {
        original: leads.get(index + 1)?.original ?? leadOf(lines[index] ?? "").length,
        mended: leadOf(mended).length,
      });
    });
    lines = found.lines;
    reading = found;
  }
  if (slips.length === 0) return undefined;
  return {
    slips,
    text: lines.join("\n"),
    originalColumn: (line, column) => {
      const lead = leads.get(line);
      return lead === undefined || column <= lead.mended ? column : column - lead.mended + lead.original;
    },
  };
}

/** The parser errors a mis-indented line causes; others (a quote left open, a bad escape) are left as the parser says them. */
const INDENTATION_ERRORS = new Set([
  "BAD_INDENT",
  "BLOCK_AS_IMPLICIT_KEY",
  "MULTILINE_IMPLICIT_KEY",
  "MISSING_CHAR",
  "TAB_AS_INDENT",
  "UNEXPECTED_TOKEN",
]);
const MAX_SLIPS = 10;

/** What is known of a text's reading when the search starts from it. */
interface Reading {
  readonly errors: readonly ParseError[];
  readonly repeatedKeys: number;
  readonly keyNames: ReadonlySet<string>;
}

interface Found extends Reading {
  readonly fix: IndentationFix;
  readonly lines: string[];
  readonly likelihood: Likelihood;
  /** Keys beside the moved one that stand beside it elsewhere too: of two readings as likely, the one with more. */
  readonly familiar: number;
}

/**
 * The likeliest line near the first error whose re-indenting reads: first the line alone, then
 * with the lines under it (a block shifted whole). Of two as likely, the one among more familiar
 * keys, then the earlier: a line moved out of its block can read, and the parser stops only at
 * the sibling after it, which moving reads too.
 */
function findSlip(
  lines: readonly string[],
  { errors, repeatedKeys, keyNames }: Reading,
  budget: TrialBudget,
): Found | undefined {
  const first = errors[0];
  if (first === undefined || !INDENTATION_ERRORS.has(first.code)) return undefined;
  const known = new Set(errors.map(errorKey));
  // A move must remove the first error and add none, nor a repeated key (that would be told as a problem of its own).
  const acceptable = (read: TrialReading): boolean =>
    read.repeatedKeys <= repeatedKeys &&
    read.errors.every((error) => known.has(errorKey(error)) && errorKey(error) !== errorKey(first));
  // A key that lost its colon can read as a value once another line moves; no indentation is at fault there.
  const withColon = withColonAfterFirstWord(lines, first.line, keyNames);
  const colonRead = withColon === undefined ? undefined : budget.read(withColon);
  if (colonRead !== undefined && acceptable(colonRead)) return undefined;
  const suspects = suspectLines(lines, first.line);
  if (suspects.length === 0) return undefined;
  const stretch: Stretch = { from: Math.min(...suspects), to: Math.max(...suspects) + 3, step: usualStep(lines) };
  const stopped = leadOf(lines[first.line - 1] ?? "").length;
  for (const withBlock of [false, true]) {
    let best: Found | undefined;
    for (const line of suspects) {
      // Once a line reads for certain, only an earlier, shallower one can still be as likely.
      if (
        best !== undefined &&
        isCertain(best.likelihood) &&
        !(line < best.fix.line && leadOf(lines[line - 1] ?? "").length < stopped)
      )
        continue;
      best = likelier(best, reindented(lines, line, { suspects, withBlock, acceptable, stretch }, budget));
    }
    if (best !== undefined) return best;
  }
  return undefined;
}

interface Trial {
  /** The lines that may have slipped (see readsAsWritten). */
  readonly suspects: readonly number[];
  readonly withBlock: boolean;
  readonly acceptable: (read: TrialReading) => boolean;
  readonly stretch: Stretch;
}

/**
 * The line re-indented to the levels around it, the likeliest that reads, nearest first (with
 * the other as near and as likely, when there is one), or undefined. A key or item must read as
 * one where it is put, not as more text of a value above.
 */
function reindented(lines: readonly string[], line: number, trial: Trial, budget: TrialBudget): Found | undefined {
  const text = lines[line - 1] ?? "";
  const block = trial.withBlock ? blockUnder(lines, line) : [];
  if (trial.withBlock && block.length === 0) return undefined;
  const kind = kindAt(text);
  let best: Found | undefined;
  for (const group of byDistance(levelsNear(lines, line), leadOf(text).length)) {
    const reading: Found[] = [];
    for (const to of group) {
      const mended = shifted(lines, line, to, block);
      const read = mended === undefined ? undefined : budget.read(mended);
      if (
        mended === undefined ||
        read === undefined ||
        !trial.acceptable(read) ||
        !readsAsWritten(read, lines, line, trial.suspects)
      )
        continue;
      const { strangers, familiar } = read.company(kind, line);
      const likelihood = likelihoodOf(mended, line, trial.stretch, { errorsLeft: read.errors.length, strangers });
      reading.push({
        fix: { line, to: [to], under: block.length },
        lines: mended,
        errors: read.errors,
        repeatedKeys: read.repeatedKeys,
        keyNames: read.keyNames,
        likelihood,
        familiar,
      });
    }
    const [likeliest] = reading.sort((a, b) => compareLikelihood(a.likelihood, b.likelihood));
    if (likeliest === undefined) continue;
    const alike = reading
      .filter((found) => compareLikelihood(found.likelihood, likeliest.likelihood) === 0)
      .map((found) => found.fix.to[0] ?? 0);
    best = likelier(best, { ...likeliest, fix: { ...likeliest.fix, to: alike.sort((a, b) => a - b) } });
    if (best !== undefined && isCertain(best.likelihood)) return best;
  }
  return best;
}

/**
 * Whether the text with `line` moved reads as it looks: the moved line as a key or an item where it
 * is put, or as text going on from a value above; and no line of text made a value by the move.
 * Text read as a value, or as more of a one-line value, where it did not go on from the line above
 * before, more likely lacks a colon than its indentation.
 */
function readsAsWritten(
  read: TrialReading,
  lines: readonly string[],
  line: number,
  suspects: readonly number[],
): boolean {
  const kind = kindAt(lines[line - 1] ?? "");
  if (!read.readsAs(kind, line)) return false;
  if (
    kind === "text" &&
    read.goesOnFromLineAbove(line) &&
    withColonAfterFirstWord(lines, line, read.keyNames) !== undefined
  )
    return false;
  const madeValue = (at: number): boolean =>
    kindAt(lines[at - 1] ?? "") === "text" &&
    (read.startsValue(at) || (read.goesOnFromLineAbove(at) && !continuesAbove(lines, at)));
  return !suspects.some((at) => at !== line && madeValue(at));
}

function likelier(found: Found | undefined, other: Found | undefined): Found | undefined {
  if (found === undefined || other === undefined) return found ?? other;
  const order =
    compareLikelihood(other.likelihood, found.likelihood) ||
    found.familiar - other.familiar ||
    other.fix.line - found.fix.line;
  return order < 0 ? other : found;
}

function errorKey(error: ParseError): string {
  return `${error.line}:${error.column}:${error.code}`;
}
