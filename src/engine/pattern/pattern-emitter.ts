import type { Atom, ClassMember, Term } from "./pattern-syntax.ts";

/**
 * A portable pattern's syntax tree written out for an engine: RE2 syntax, or JavaScript syntax
 * for flags "su". The syntax is the same in both apart from how literals are written.
 */

/** `(?s)`: `.` matches line breaks. Without (?m), RE2's ^ and $ are the very start and end. */
export function re2Source(alternatives: readonly Term[][]): string {
  return `(?s)${emitAlternatives(alternatives, emitCodePoint)}`;
}

export function javaScriptSource(alternatives: readonly Term[][]): string {
  return emitAlternatives(alternatives, javaScriptCodePoint);
}

/** Writes one literal code point, valid both inside and outside a set. */
type CodePointWriter = (codePoint: number) => string;

function emitAlternatives(alternatives: readonly Term[][], literal: CodePointWriter): string {
  return alternatives.map((sequence) => sequence.map((term) => emitTerm(term, literal)).join("")).join("|");
}

function emitTerm(term: Term, literal: CodePointWriter): string {
  switch (term.kind) {
    case "start":
      return "^";
    case "end":
      return "$";
    case "repeat":
      return emitAtom(term.atom, literal) + emitQuantifier(term.min, term.max) + (term.lazy ? "?" : "");
    default:
      return emitAtom(term, literal);
  }
}

function emitQuantifier(min: number, max: number | undefined): string {
  if (max === undefined) return min === 0 ? "*" : min === 1 ? "+" : `{${min},}`;
  if (min === 0 && max === 1) return "?";
  // Counts are re-emitted as plain decimals: RE2 reads "{01}" as literal text.
  return min === max ? `{${min}}` : `{${min},${max}}`;
}

function emitAtom(atom: Atom, literal: CodePointWriter): string {
  switch (atom.kind) {
    case "char":
      return literal(atom.codePoint);
    case "any":
      return ".";
    case "perl":
      return `\\${atom.letter}`;
    case "class":
      return `[${atom.negated ? "^" : ""}${atom.members.map((member) => emitClassMember(member, literal)).join("")}]`;
    case "group":
      // Captures do not change whether a pattern matches, and cost RE2 work.
      return `(?:${emitAlternatives(atom.alternatives, literal)})`;
  }
}

function emitClassMember(member: ClassMember, literal: CodePointWriter): string {
  switch (member.kind) {
    case "char":
      return literal(member.codePoint);
    case "range":
      return `${literal(member.low)}-${literal(member.high)}`;
    case "perl":
      return `\\${member.letter}`;
  }
}

/** Characters that RE2 reads as syntax, outside or inside a class. */
const RE2_SYNTAX_CHARACTERS = "\\.+*?()|[]{}^$-";

/**
 * One code point as an RE2 literal, valid both inside and outside a class: RE2's syntax characters
 * are escaped, control characters are written in hex, and everything else is the character itself
 * (RE2 reads UTF-8, so an astral character is one literal).
 */
function emitCodePoint(codePoint: number): string {
  if (codePoint < 0x20 || codePoint === 0x7f) return `\\x{${codePoint.toString(16).toUpperCase()}}`;
  const character = String.fromCodePoint(codePoint);
  const isSyntax = codePoint < 0x80 && RE2_SYNTAX_CHARACTERS.includes(character);
  return isSyntax ? `\\${character}` : character;
}

/** One code point as a JavaScript literal for flag "u", valid both inside and outside a set. */
function javaScriptCodePoint(codePoint: number): string {
  return `\\u{${codePoint.toString(16)}}`;
}
