import { isJsonObject, listAt, objectAt } from "../../engine/value/json-access.ts";
import type { JsonObject, JsonValue } from "../../engine/value/json-value.ts";
import { placedRuleExpressions } from "../expressions/expression-walk.ts";
import { lineStarts, positionIn, type SourceLocator, type SourcePosition } from "../source/source-position.ts";
import { ExpressionTextError } from "./expression-tokens.ts";
import { parseExpressionText, readExpressionTree } from "./parse-expression-text.ts";
import { sourceOffsetOf } from "./scalar-offsets.ts";
import { MAX_PORTABLE_DIGITS, numberNotPortableMessage, significantDigits } from "../source/significant-digits.ts";

/** An expression's text that does not read: what is wrong, at the line and column of the character. */
export interface ExpressionTextProblem {
  readonly message: string;
  readonly line?: number;
  readonly column?: number;
}

/** An expression written as text that was read: its path in the document and where its text starts. */
export interface TextExpressionPlace {
  readonly path: readonly string[];
  readonly line?: number;
  readonly column?: number;
}

export interface TranslatedDocument {
  /** The document with every expression written as text turned into its tree. */
  readonly value: JsonValue;
  /** Places as the source's locator gives them; inside an expression written as text, at its character. */
  readonly locate: SourceLocator;
  readonly problems: readonly ExpressionTextProblem[];
  /** Numbers written in texts with more digits than a double keeps (NUMBER_NOT_PORTABLE, a warning). */
  readonly numberWarnings: readonly ExpressionTextProblem[];
  /** Every expression that was written as text (`check --portable` warns on each). */
  readonly textExpressions: readonly TextExpressionPlace[];
}

/** A place where an expression may stand in a ruleset document, and what is written there. */
export interface ExpressionSlot {
  /** From the document: `rules/3/when`, `functions/fee/body`. */
  readonly path: readonly string[];
  readonly expression: JsonValue;
}

/**
 * Every place an expression may stand in a ruleset document: each rule's (placedRuleExpressions)
 * and each function's body. Nested arguments of an expression are not listed: they are inside it.
 */
export function expressionSlots(document: JsonValue): ExpressionSlot[] {
  if (!isJsonObject(document)) return [];
  const slots: ExpressionSlot[] = [];
  listAt(document.rules).forEach((rule, index) => {
    if (!isJsonObject(rule)) return;
    for (const { expression, path } of placedRuleExpressions(rule))
      slots.push({ expression, path: ["rules", String(index), ...path] });
  });
  for (const [name, definition] of Object.entries(objectAt(document.functions)))
    if (isJsonObject(definition) && Object.hasOwn(definition, "body"))
      slots.push({ expression: definition.body!, path: ["functions", name, "body"] });
  return slots;
}

/** An expression written as text, read, and where its text starts in the source. */
interface TranslatedSlot {
  /** The text, read again for its nodes' places when a problem inside it needs one. */
  readonly text: string;
  /** Found when a place inside the text is first asked for: reading places costs, and a valid file asks none. */
  readonly scalarStart: () => number | undefined;
}

/**
 * Turns `{expr: "<text>"}` into the expression tree it writes (DECISIONS.md, "Expressions written
 * as text") wherever an expression may stand in a ruleset document: a rule's `when`, `assert`,
 * finding args, assigned values, command payloads and keys, a function's body, and any argument
 * of an expression written as a tree. Everything after reading sees trees only, so bundles,
 * checksums and manifests are the same whichever form the source used, and a problem the
 * checks find inside an expression is placed at its character in the text. The document is
 * changed in place (it was just read); `source` is its text, for the places.
 */
export function translateTextExpressions(
  document: JsonValue,
  locate: SourceLocator,
  source: string,
): TranslatedDocument {
  if (!source.includes("expr") || !isJsonObject(document))
    return { value: document, locate, problems: [], numberWarnings: [], textExpressions: [] };
  const translation = new Translation(locate, source);
  for (const { path, expression } of expressionSlots(document)) translation.slot(document, path, expression);
  return {
    value: document,
    locate: translation.locator(),
    problems: translation.problems,
    numberWarnings: translation.numberWarnings,
    textExpressions: translation.textExpressions,
  };
}

class Translation {
  readonly problems: ExpressionTextProblem[] = [];
  readonly numberWarnings: ExpressionTextProblem[] = [];
  readonly textExpressions: TextExpressionPlace[] = [];
  private readonly slots = new Map<string, TranslatedSlot>();
  private lineStarts: number[] | undefined;

  constructor(
    private readonly locate: SourceLocator,
    private readonly source: string,
  ) {}

  /** The expression at `path` in the document, translated where it is text. */
  slot(document: JsonObject, path: readonly string[], expression: JsonValue): void {
    const translated = this.expression(expression, [...path]);
    if (translated === expression) return;
    let parent: JsonValue = document;
    for (const key of path.slice(0, -1)) parent = (parent as JsonObject)[key]!;
    (parent as JsonObject)[path.at(-1)!] = translated;
  }

  /** `path` is one array changed as the walk goes (most nodes are trees, not texts): copied where a text keeps it. */
  private expression(node: JsonValue, path: string[]): JsonValue {
    if (!isJsonObject(node)) return node;
    if (Object.hasOwn(node, "expr")) return this.text(node, [...path]);
    const args = node.args;
    if (Array.isArray(args))
      for (let index = 0; index < args.length; index++) {
        path.push("args", String(index));
        args[index] = this.expression(args[index]!, path);
        path.length -= 2;
      }
    return node;
  }

  private text(node: JsonObject, path: readonly string[]): JsonValue {
    const text = node.expr;
    if (typeof text !== "string" || Object.keys(node).length !== 1) {
      this.problems.push({
        message: "`expr` holds an expression's text: a string, alone in its object",
        ...(this.locate([...path, "expr"], "value") ?? this.locate(path, "value")),
      });
      return node;
    }
    let found: { start: number | undefined } | undefined;
    const scalarStart = (): number | undefined => {
      found ??= { start: this.scalarStartOf(path) };
      return found.start;
    };
    try {
      const { tree, numbers } = readExpressionTree(text);
      this.slots.set(path.join("/"), { text, scalarStart });
      for (const number of numbers) {
        const digits = significantDigits(number.text);
        if (digits > MAX_PORTABLE_DIGITS)
          this.numberWarnings.push({
            message: numberNotPortableMessage(number.text, digits),
            ...this.textPosition(scalarStart(), number.start),
          });
      }
      const textAt = (): SourcePosition | undefined =>
        this.textPosition(scalarStart(), 0) ?? this.locate(path, "value");
      this.textExpressions.push({
        path,
        get line() {
          return textAt()?.line;
        },
        get column() {
          return textAt()?.column;
        },
      });
      return tree;
    } catch (error) {
      if (!(error instanceof ExpressionTextError)) throw error;
      this.problems.push({
        message: `${error.message} (in \`${text}\`)`,
        ...this.textPosition(scalarStart(), error.offset),
      });
      return node;
    }
  }

  /** Where the scalar holding the text at `path` starts in the source. */
  private scalarStartOf(path: readonly string[]): number | undefined {
    const place = this.locate([...path, "expr"], "value");
    return place === undefined ? undefined : this.offsetOf(place);
  }

  private textPosition(scalarStart: number | undefined, offset: number): SourcePosition | undefined {
    return scalarStart === undefined ? undefined : this.positionOf(sourceOffsetOf(this.source, scalarStart, offset));
  }

  locator(): SourceLocator {
    if (this.slots.size === 0) return this.locate;
    return (path, part) => {
      for (let length = path.length; length >= 0; length--) {
        const slot = this.slots.get(path.slice(0, length).join("/"));
        if (slot !== undefined) return this.insideText(slot, path.slice(length)) ?? this.locate(path, part);
      }
      return this.locate(path, part);
    };
  }

  /** The place of a node inside an expression's text; a path its spans do not hold, its nearest node that has one. */
  private insideText(slot: TranslatedSlot, inside: readonly string[]): SourcePosition | undefined {
    const { spans } = parseExpressionText(slot.text);
    for (let length = inside.length; ; length--) {
      const span = spans.get(inside.slice(0, length).join("/"));
      if (span !== undefined) return this.textPosition(slot.scalarStart(), span.start);
    }
  }

  private starts(): number[] {
    this.lineStarts ??= lineStarts(this.source);
    return this.lineStarts;
  }

  private offsetOf(position: SourcePosition): number {
    return (this.starts()[position.line - 1] ?? 0) + position.column - 1;
  }

  private positionOf(offset: number): SourcePosition {
    return positionIn(this.starts(), offset);
  }
}
