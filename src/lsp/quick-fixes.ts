import { CodeActionKind, type CodeAction, type Diagnostic } from "vscode-languageserver/node";
import { closestName } from "../engine/names/closest-name.ts";
import { lineOf } from "./text-range.ts";
import type { DiagnosticData } from "./problem-diagnostics.ts";

/**
 * A quick fix per "did you mean" of `check`: the name at the diagnostic replaced by the one
 * suggested. A suggestion holding dots (a data path) replaces the whole path; otherwise the
 * segment of a dotted name nearest to the suggestion (`dta` in `dta.member`) is replaced.
 */
export function quickFixes(uri: string, text: string, diagnostics: readonly Diagnostic[]): CodeAction[] {
  const actions: CodeAction[] = [];
  for (const diagnostic of diagnostics) {
    const suggestion = (diagnostic.data as DiagnosticData | undefined)?.didYouMean;
    if (suggestion === undefined) continue;
    const line = lineOf(text, diagnostic.range.start.line);
    if (line === undefined) continue;
    const start = diagnostic.range.start.character;
    const quote = line[start] === '"' || line[start] === "'" ? 1 : 0;
    const token = /^[\w$.-]+/.exec(line.slice(start + quote))?.[0];
    if (token === undefined || token === suggestion) continue;
    let from = start + quote;
    let to = from + token.length;
    if (!suggestion.includes(".") && token.includes(".")) {
      const segments = token.split(".");
      const index = nearestSegment(segments, suggestion);
      from += segments.slice(0, index).reduce((sum, segment) => sum + segment.length + 1, 0);
      to = from + segments[index]!.length;
    }
    actions.push({
      title: `Change to ${suggestion}`,
      kind: CodeActionKind.QuickFix,
      diagnostics: [diagnostic],
      isPreferred: true,
      edit: {
        changes: {
          [uri]: [
            {
              range: {
                start: { line: diagnostic.range.start.line, character: from },
                end: { line: diagnostic.range.start.line, character: to },
              },
              newText: suggestion,
            },
          ],
        },
      },
    });
  }
  return actions;
}

/** The segment a suggestion stands for: the nearest by name, else the first (a misspelt root). */
function nearestSegment(segments: readonly string[], suggestion: string): number {
  const nearest = closestName(suggestion, segments);
  return nearest === undefined ? 0 : segments.indexOf(nearest);
}
