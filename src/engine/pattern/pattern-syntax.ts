/**
 * The syntax tree a portable pattern is read into (portable-pattern.ts), which the emitters write
 * out for each engine (pattern-emitter.ts) and the linear-subset test inspects (linear-subset.ts).
 */

export type PerlClass = "d" | "D" | "w" | "W";

export type ClassMember =
  | { kind: "char"; codePoint: number }
  | { kind: "range"; low: number; high: number }
  | { kind: "perl"; letter: PerlClass };

/** Something a quantifier can apply to. */
export type Atom =
  | { kind: "char"; codePoint: number }
  | { kind: "any" }
  | { kind: "perl"; letter: PerlClass }
  | { kind: "class"; negated: boolean; members: ClassMember[] }
  | { kind: "group"; alternatives: Term[][] };

export type Term =
  | Atom
  | { kind: "start" }
  | { kind: "end" }
  | { kind: "repeat"; atom: Atom; min: number; max: number | undefined; lazy: boolean };
