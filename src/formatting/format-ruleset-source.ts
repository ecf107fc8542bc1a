import { valuesEqual } from "../engine/value/value-equality.ts";
import { readRulesetSource } from "../compiler/source/read-ruleset-source.ts";
import { readSource } from "../compiler/source/read-source.ts";
import type { SourceProblem } from "../compiler/source/source-problem.ts";
import { type ExpressionForm, expressionRewrites } from "./expression-rewrites.ts";
import { rewriteJson } from "./json-rewrite.ts";
import { rewriteYaml } from "./yaml-rewrite.ts";

/**
 * Why a source was not formatted: what reading it refused (a text that does not parse is
 * EXPRESSION_TEXT_INVALID at its character), or FORMAT_CHANGES_VALUE when the rewritten text
 * would not read back as the same document (a fault of the formatter, never written).
 */
export interface FormatProblem {
  readonly code: SourceProblem["code"] | "FORMAT_CHANGES_VALUE";
  readonly message: string;
  readonly file: string;
  readonly line?: number;
  readonly column?: number;
}

export type FormatOutcome =
  | { readonly ok: true; readonly text: string; readonly changed: boolean }
  | { readonly ok: false; readonly problems: readonly FormatProblem[] };

/**
 * A ruleset source's text with its expressions written in `form` (expression-rewrites.ts), YAML
 * or JSON by the file's name as the reader chooses. Only the expressions change: the result is
 * read back and must give the same document as the text did, expressions read as trees, so
 * bundles and checksums compiled from it are the same.
 */
export function formatRulesetSource(text: string, file: string, form: ExpressionForm): FormatOutcome {
  const read = readRulesetSource(text, file);
  if (!read.ok) return { ok: false, problems: refusals(read.problems) };
  const written = readSource(text, file);
  if (!written.ok) return { ok: false, problems: refusals(written.problems) };
  const rewrites = expressionRewrites(written.value, form);
  if (rewrites.length === 0) return { ok: true, text, changed: false };
  const formatted = file.toLowerCase().endsWith(".json") ? rewriteJson(text, rewrites) : rewriteYaml(text, rewrites);
  const reread = readRulesetSource(formatted, file);
  if (!reread.ok || !valuesEqual(reread.value, read.value))
    return {
      ok: false,
      problems: [
        {
          code: "FORMAT_CHANGES_VALUE",
          message: `writing the expressions as ${form} would change what the file says (${reread.ok ? "another document" : reread.problems.map((problem) => problem.message).join("; ")}): the file is left as it is`,
          file,
        },
      ],
    };
  return { ok: true, text: formatted, changed: formatted !== text };
}

/** The problems that refuse a file; a number's warning alone does not. */
function refusals(problems: readonly SourceProblem[]): FormatProblem[] {
  return problems.filter((problem) => problem.code !== "NUMBER_NOT_PORTABLE");
}
