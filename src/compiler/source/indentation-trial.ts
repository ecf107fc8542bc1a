import { isScalar, visit, type Document } from "yaml";
import { levelsOf, type LineKind } from "./indented-lines.ts";

/** Parses a text exactly as the reader does. */
export type ParseYaml = (text: string) => Document.Parsed[];

export interface ParseError {
  readonly line: number;
  readonly column: number;
  readonly code: string;
}

/** What parsing a re-indented text tells: its errors, and what its collections hold where. */
export interface TrialReading {
  readonly errors: ParseError[];
  /** Whether the line reads as what it looks like: a key or an item starting at its indentation, text as more of a value begun above it. */
  readsAs(kind: LineKind, line: number): boolean;
  /**
   * Whether the line's text starts a value, or goes on with a plain value begun on the line above:
   * how a key that lost its colon reads (as the value of the key above, or more of it).
   */
  startsValue(line: number): boolean;
  goesOnFromLineAbove(line: number): boolean;
  /** How many keys are repeated in their mapping (a line moved into the wrong mapping often repeats a key there). */
  readonly repeatedKeys: number;
  /** Every key the text holds. */
  readonly keyNames: ReadonlySet<string>;
  /**
   * The keys beside the line's key that stand in other mappings of the text: how many never stand
   * beside it there (strangers: in a ruleset's tests, `ctx:` never stands beside `amount:`), and
   * how many do (familiar: `ctx:` beside `data:`).
   */
  company(kind: LineKind, line: number): { strangers: number; familiar: number };
}

/**
 * Every try parses the whole text again, so tries are bounded: in number, and in the text parsed
 * (a large file gets fewer).
 */
export class TrialBudget {
  private trials = 60;
  private characters = 4_000_000;

  constructor(private readonly parse: ParseYaml) {}

  /** The reading of `lines`, or undefined when the budget is spent or the parser gave up. */
  read(lines: readonly string[]): TrialReading | undefined {
    const text = lines.join("\n");
    if (this.trials <= 0 || this.characters <= 0) return undefined;
    this.trials--;
    this.characters -= text.length;
    try {
      return readingOf(this.parse(text), lines);
    } catch {
      return undefined;
    }
  }
}

function errorsOf(documents: readonly Document.Parsed[]): ParseError[] {
  return documents
    .flatMap((document) => document.errors)
    .map((error) => ({ line: error.linePos?.[0].line ?? 0, column: error.linePos?.[0].col ?? 0, code: error.code }))
    .sort((a, b) => a.line - b.line || a.column - b.column);
}

/** What parsed documents tell of the text they were parsed from (split in `lines`). */
export function readingOf(documents: readonly Document.Parsed[], lines: readonly string[]): TrialReading {
  const starts: number[] = [0];
  for (const text of lines) starts.push((starts[starts.length - 1] ?? 0) + text.length + 1);
  const offsetOf = (kind: LineKind, line: number): number | undefined => {
    const levels = levelsOf(lines[line - 1] ?? "");
    const column = kind === "item" ? levels[1] : levels[0];
    return column === undefined ? undefined : (starts[line - 1] ?? 0) + column;
  };
  const items = new Set<number>();
  /** Where text may go on over lines: [start, end, whether plain]. */
  const spans: [number, number, boolean][] = [];
  const keys = new Map<number, { key: string; siblings: readonly string[] }>();
  let repeated = 0;
  const together = new Map<string, number>();
  const appearances = new Map<string, number>();
  for (const document of documents) {
    visit(document, {
      Scalar(_key, scalar) {
        const [start, end] = scalar.range ?? [0, 0];
        spans.push([start, end, scalar.type === undefined || scalar.type === "PLAIN"]);
      },
      Map(_key, map) {
        if (map.flow === true && map.range) spans.push([map.range[0], map.range[1], false]);
        const names = map.items.map((pair) => (isScalar(pair.key) ? String(pair.key.value) : ""));
        const siblings = [...new Set(names)];
        repeated += names.length - siblings.length;
        map.items.forEach((pair, index) => {
          const offset = rangeStart(pair.key);
          if (offset !== undefined) keys.set(offset, { key: names[index] ?? "", siblings });
        });
        for (const name of siblings) {
          appearances.set(name, (appearances.get(name) ?? 0) + 1);
          for (const other of siblings)
            if (name < other) together.set(pairKey(name, other), (together.get(pairKey(name, other)) ?? 0) + 1);
        }
      },
      Seq(_key, seq) {
        if (seq.flow === true && seq.range) spans.push([seq.range[0], seq.range[1], false]);
        for (const item of seq.items) {
          const offset = rangeStart(item);
          if (offset !== undefined) items.add(offset);
        }
      },
    });
  }
  return {
    errors: errorsOf(documents),
    readsAs: (kind, line) => {
      const offset = offsetOf(kind, line);
      if (offset === undefined) return true;
      if (kind !== "text") return keys.has(offset) || items.has(offset);
      return spans.some(([start, end]) => start < offset && offset < end);
    },
    startsValue: (line) => {
      const offset = offsetOf("key", line);
      return spans.some(([start]) => start === offset);
    },
    goesOnFromLineAbove: (line) => {
      const offset = offsetOf("key", line) ?? 0;
      const lineAbove = starts[line - 2] ?? 0;
      return spans.some(([start, end, plain]) => plain && lineAbove <= start && start < offset && offset < end);
    },
    repeatedKeys: repeated,
    keyNames: new Set(appearances.keys()),
    company: (kind, line) => {
      const offset = offsetOf(kind, line);
      const found = offset === undefined ? undefined : keys.get(offset);
      // Only keys that both stand elsewhere tell anything by standing together there, or not.
      const elsewhere = (name: string): boolean => (appearances.get(name) ?? 0) > 1;
      if (kind === "text" || found === undefined || !elsewhere(found.key)) return { strangers: 0, familiar: 0 };
      const others = found.siblings.filter((other) => other !== found.key && elsewhere(other));
      const familiar = others.filter((other) => (together.get(pairKey(found.key, other)) ?? 0) > 1).length;
      return { strangers: others.length - familiar, familiar };
    },
  };
}

function pairKey(a: string, b: string): string {
  return a < b ? `${a}\n${b}` : `${b}\n${a}`;
}

function rangeStart(node: unknown): number | undefined {
  return (node as { range?: [number, number, number] } | null)?.range?.[0];
}
