/**
 * The reader of portable patterns (specification 4.4): code points into a small syntax tree
 * (pattern-syntax.ts), the limits of 4.4 checked while reading, so that the first problem from the
 * left is the one reported. Positions in reasons count code points from 0. checkPortablePattern
 * (portable-pattern.ts) runs it.
 */

import type { Atom, ClassMember, PerlClass, Term } from "./pattern-syntax.ts";

/** The largest `{}` count, and the largest product of counts along a chain of nested groups. */
const MAX_REPEAT = 1000;

const SYNTAX_CHARACTERS = "^$\\.*+?()[]{}|/";

/** What the limits need to know about a piece of the tree. */
interface Shape {
  /** Largest product of `{}` counts along any chain inside (1 when there is none). */
  copies: number;
  /** Whether it contains, at any depth, an unbounded quantifier (`*`, `+`, `{n,}`). */
  unbounded: boolean;
}

const PLAIN: Shape = { copies: 1, unbounded: false };

/** Thrown inside the reader to stop at the first problem. */
export class NotPortable extends Error {}

function refuse(reason: string): never {
  throw new NotPortable(reason);
}

const show = (codePoint: number): string => String.fromCodePoint(codePoint);
const isSyntaxCharacter = (codePoint: number): boolean =>
  codePoint < 0x80 && SYNTAX_CHARACTERS.includes(show(codePoint));
const isDigit = (codePoint: number | undefined): boolean =>
  codePoint !== undefined && codePoint >= 0x30 && codePoint <= 0x39;

/** The character that `\t`, `\n` or `\r` stands for, or undefined for any other letter. */
function controlEscape(letter: string): number | undefined {
  return letter === "t" ? 0x09 : letter === "n" ? 0x0a : letter === "r" ? 0x0d : undefined;
}

function isPerlClass(letter: string): letter is PerlClass {
  return letter === "d" || letter === "D" || letter === "w" || letter === "W";
}

/** A recursive-descent reader; nesting is bounded by the 1000 code point limit. */
export class PatternReader {
  private position = 0;

  constructor(private readonly codePoints: readonly number[]) {}

  readPattern(): Term[][] {
    const { alternatives } = this.readAlternatives();
    const stray = this.peek();
    if (stray !== undefined) refuse(`unbalanced ")" at position ${this.position}`);
    return alternatives;
  }

  private peek(offset = 0): number | undefined {
    return this.codePoints[this.position + offset];
  }

  private peekIs(text: string, offset = 0): boolean {
    const codePoint = this.peek(offset);
    return codePoint !== undefined && show(codePoint) === text;
  }

  /** Alternatives up to the end of the pattern or of the enclosing group. */
  private readAlternatives(): { alternatives: Term[][]; shape: Shape } {
    const alternatives: Term[][] = [];
    const shape: Shape = { ...PLAIN };
    for (;;) {
      const sequence: Term[] = [];
      while (this.peek() !== undefined && !this.peekIs("|") && !this.peekIs(")")) {
        const term = this.readTerm();
        sequence.push(term.term);
        shape.copies = Math.max(shape.copies, term.shape.copies);
        shape.unbounded ||= term.shape.unbounded;
      }
      alternatives.push(sequence);
      if (!this.peekIs("|")) return { alternatives, shape };
      this.position++;
    }
  }

  private readTerm(): { term: Term; shape: Shape } {
    const start = this.position;
    const first = show(this.peek() ?? 0);
    if (first === "^" || first === "$") {
      this.position++;
      this.refuseQuantifierHere("has nothing to repeat");
      return { term: { kind: first === "^" ? "start" : "end" }, shape: PLAIN };
    }
    const quantifierFirst = first === "*" || first === "+" || first === "?" || (first === "{" && this.countsAt(start));
    if (quantifierFirst) refuse(`"${first}" at position ${start} has nothing to repeat`);
    const atom = this.readAtom();
    const quantified = this.readQuantifier(atom.atom, atom.shape);
    this.refuseQuantifierHere("is a stacked or possessive quantifier, which is not portable");
    return quantified;
  }

  /** Refuses when a quantifier starts at the current position, saying what is wrong with it. */
  private refuseQuantifierHere(problem: string): void {
    const next = this.peek();
    if (next === undefined) return;
    const character = show(next);
    const isQuantifier =
      character === "*" ||
      character === "+" ||
      character === "?" ||
      (character === "{" && this.countsAt(this.position));
    if (isQuantifier) refuse(`"${character}" at position ${this.position} ${problem}`);
  }

  private readAtom(): { atom: Atom; shape: Shape } {
    const start = this.position;
    const codePoint = this.peek() ?? 0;
    const character = show(codePoint);
    switch (character) {
      case "(":
        return this.readGroup();
      case "[":
        return { atom: this.readClass(), shape: PLAIN };
      case "\\":
        return { atom: this.readEscape(), shape: PLAIN };
      case ".":
        this.position++;
        return { atom: { kind: "any" }, shape: PLAIN };
      case "{":
      case "}":
      case "]":
        return refuse(`an unescaped "${character}" at position ${start} must be escaped (\\${character})`);
      default:
        this.position++;
        return { atom: { kind: "char", codePoint }, shape: PLAIN };
    }
  }

  private readGroup(): { atom: Atom; shape: Shape } {
    const start = this.position;
    this.position++;
    if (this.peekIs("?")) {
      if (!this.peekIs(":", 1)) {
        const opening = this.codePoints
          .slice(start, start + 3)
          .map(show)
          .join("");
        refuse(`"${opening}" at position ${start} starts a group that is not portable; only (...) and (?:...) are`);
      }
      this.position += 2;
    }
    const body = this.readAlternatives();
    if (!this.peekIs(")")) refuse(`the group opened at position ${start} is never closed`);
    this.position++;
    return { atom: { kind: "group", alternatives: body.alternatives }, shape: body.shape };
  }

  /**
   * `\x`: a Perl class, a control character or an escaped syntax character; inside a class `\-`
   * too. Anything else is refused, so that no escape means different things in different engines.
   */
  private readEscape(inClass = false): { kind: "perl"; letter: PerlClass } | { kind: "char"; codePoint: number } {
    const start = this.position;
    const next = this.peek(1);
    if (next === undefined) refuse(`the backslash at position ${start} escapes nothing`);
    this.position += 2;
    const letter = show(next);
    if (isPerlClass(letter)) return { kind: "perl", letter };
    const control = controlEscape(letter);
    if (control !== undefined) return { kind: "char", codePoint: control };
    if (isSyntaxCharacter(next) || (inClass && letter === "-")) return { kind: "char", codePoint: next };
    return refuse(`\\${letter} is not a portable escape${inClass ? " in a character class" : ""} at position ${start}`);
  }

  /** `[...]` or `[^...]`. */
  private readClass(): Atom {
    const start = this.position;
    this.position++;
    const negated = this.peekIs("^");
    if (negated) this.position++;
    const items = this.readClassItems(start);
    if (items.length === 0) {
      refuse(`the character class at position ${start} is empty (a literal "]" must be escaped)`);
    }
    return { kind: "class", negated, members: classMembers(items) };
  }

  private readClassItems(classStart: number): ClassItem[] {
    const items: ClassItem[] = [];
    for (;;) {
      const position = this.position;
      const codePoint = this.peek();
      if (codePoint === undefined) {
        refuse(`the character class opened at position ${classStart} is never closed`);
      }
      const character = show(codePoint);
      if (character === "]") {
        this.position++;
        return items;
      }
      if (character === "[") {
        refuse(`an unescaped "[" at position ${position} inside a character class must be escaped (\\[)`);
      }
      if (character === "&" && this.peekIs("&", 1)) {
        refuse(`"&&" at position ${position} (class intersection) is not portable`);
      }
      if (character === "\\") {
        const position = this.position;
        items.push({ ...this.readEscape(true), position });
        continue;
      }
      this.position++;
      items.push(character === "-" ? { kind: "dash", position } : { kind: "char", codePoint, position });
    }
  }

  /** Whether a well-formed `{n}`, `{n,}` or `{n,m}` starts at `start`. */
  private countsAt(start: number): boolean {
    return readCounts(this.codePoints, start) !== undefined;
  }

  /** An optional quantifier after an atom, with the limits of 4.4 applied. */
  private readQuantifier(atom: Atom, inner: Shape): { term: Term; shape: Shape } {
    const start = this.position;
    const symbol = show(this.peek() ?? 0);
    const counts = symbol === "{" ? readCounts(this.codePoints, start) : undefined;
    let min: number;
    let max: number | undefined;
    let copies = inner.copies;
    if (symbol === "*" || symbol === "+" || symbol === "?") {
      // These do not count towards the product of counts.
      this.position++;
      min = symbol === "+" ? 1 : 0;
      max = symbol === "?" ? 1 : undefined;
    } else if (counts !== undefined) {
      ({ min, max } = counts);
      this.position = counts.end;
      checkCounts(min, max, counts.text, start);
      // The maximum, or the minimum where there is none; a zero count counts as one.
      copies = inner.copies * Math.max(max ?? min, 1);
      if (copies > MAX_REPEAT) {
        refuse(`nested repetition counts multiply to ${copies} at position ${start}, ` + `more than ${MAX_REPEAT}`);
      }
    } else {
      return { term: atom, shape: inner };
    }
    const repeatsMoreThanOnce = max === undefined || max >= 2;
    if (repeatsMoreThanOnce && inner.unbounded) {
      refuse(
        `the quantifier at position ${start} repeats a group that contains an unbounded ` +
          "quantifier (*, + or {n,}), which is not portable",
      );
    }
    const lazy = this.peekIs("?");
    if (lazy) this.position++;
    return {
      term: { kind: "repeat", atom, min, max, lazy },
      shape: { copies, unbounded: inner.unbounded || max === undefined },
    };
  }
}

function checkCounts(min: number, max: number | undefined, text: string, position: number): void {
  if (min > MAX_REPEAT || (max ?? 0) > MAX_REPEAT) {
    refuse(`a count in "${text}" at position ${position} is more than ${MAX_REPEAT}`);
  }
  if (max !== undefined && max < min) {
    refuse(`the counts in "${text}" at position ${position} are out of order`);
  }
}

/**
 * Reads `{n}`, `{n,}` or `{n,m}` at `start`. Counts are ASCII digits, read as decimal numbers
 * (leading zeros allowed). Returns undefined when the brace does not start a quantifier.
 */
function readCounts(
  codePoints: readonly number[],
  start: number,
): { min: number; max: number | undefined; end: number; text: string } | undefined {
  let position = start + 1;
  const readNumber = (): number | undefined => {
    let digits = "";
    while (isDigit(codePoints[position])) digits += show(codePoints[position++] ?? 0);
    // Many digits read as Infinity, which the limit check then refuses.
    return digits === "" ? undefined : Number(digits);
  };
  const min = readNumber();
  if (min === undefined) return undefined;
  let max: number | undefined = min;
  if (codePoints[position] === 0x2c /* , */) {
    position++;
    max = readNumber();
  }
  if (codePoints[position] !== 0x7d /* } */) return undefined;
  const end = position + 1;
  return { min, max, end, text: codePoints.slice(start, end).map(show).join("") };
}

/** An item of a class as read, before ranges are formed. */
type ClassItem =
  | { kind: "char"; codePoint: number; position: number }
  | { kind: "perl"; letter: PerlClass; position: number }
  | { kind: "dash"; position: number };

/** Forms ranges from `x-y`; an unescaped `-` is otherwise only allowed first or last. */
function classMembers(items: readonly ClassItem[]): ClassMember[] {
  const members: ClassMember[] = [];
  for (let index = 0; index < items.length; ) {
    const item = items[index] as ClassItem;
    const next = items[index + 1];
    const afterNext = items[index + 2];
    if (next?.kind === "dash" && afterNext !== undefined) {
      if (item.kind !== "char" || afterNext.kind !== "char") {
        refuse(`the range at position ${item.position} must go from one character to another`);
      }
      if (item.codePoint > afterNext.codePoint) {
        const text = `${show(item.codePoint)}-${show(afterNext.codePoint)}`;
        refuse(`the range "${text}" at position ${item.position} goes from high to low`);
      }
      members.push({ kind: "range", low: item.codePoint, high: afterNext.codePoint });
      index += 3;
      continue;
    }
    if (item.kind === "dash") {
      if (index !== 0 && index !== items.length - 1) {
        refuse(`a literal "-" at position ${item.position} in a character class must be escaped, or be first or last`);
      }
      members.push({ kind: "char", codePoint: 0x2d });
    } else {
      members.push(
        item.kind === "char" ? { kind: "char", codePoint: item.codePoint } : { kind: "perl", letter: item.letter },
      );
    }
    index++;
  }
  return members;
}
