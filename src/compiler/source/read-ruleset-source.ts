import { type TextExpressionPlace, translateTextExpressions } from "../expression-text/translate-text-expressions.ts";
import { readSource } from "./read-source.ts";
import { inFileOrder, type SourceProblem, type SourceRead } from "./source-problem.ts";

/** A source read, with the expressions it wrote as text (none when it was refused). */
export type RulesetSourceRead = SourceRead & { readonly textExpressions: readonly TextExpressionPlace[] };

/**
 * Reads a ruleset source file (readSource) and turns its expressions written as text into trees:
 * what every loader of rulesets reads sources with. A text that does not read refuses the file,
 * as a syntax error of the file would (`EXPRESSION_TEXT_INVALID` at the character), every such
 * text listed at once. A number written in a text with more than 15 significant digits is
 * NUMBER_NOT_PORTABLE, a warning, as it is written anywhere else in the file.
 */
export function readRulesetSource(text: string, file: string): RulesetSourceRead {
  const read = readSource(text, file);
  if (!read.ok) return { ...read, textExpressions: [] };
  const translated = translateTextExpressions(read.value, read.locate, text);
  const numberWarnings: SourceProblem[] = translated.numberWarnings.map((warning) => ({
    code: "NUMBER_NOT_PORTABLE",
    file,
    ...warning,
  }));
  if (translated.problems.length === 0)
    return {
      ...read,
      problems: numberWarnings.length === 0 ? read.problems : inFileOrder([...read.problems, ...numberWarnings]),
      value: translated.value,
      locate: translated.locate,
      textExpressions: translated.textExpressions,
    };
  const problems = inFileOrder([
    ...read.problems,
    ...numberWarnings,
    ...translated.problems.map((problem) => ({ code: "EXPRESSION_TEXT_INVALID" as const, file, ...problem })),
  ]);
  return { ok: false, problems, salvaged: translated.value, textExpressions: [] };
}
