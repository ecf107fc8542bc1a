import type { CompletionItem, Position } from "vscode-languageserver/node";
import { CORE_OPERATORS } from "../compiler/schema/names.ts";
import { FUNCTIONS_PREFIX } from "../engine/expression-text/expression-notation.ts";
import type { ExpressionTextAt } from "./expression-text-at.ts";
import {
  customOperatorItems,
  functionItems,
  operatorItem,
  variableCompletions,
  variableRootItems,
} from "./name-completions.ts";
import type { RulesetContext } from "./ruleset-context.ts";

/** A path or name being typed at the end of the text before the cursor: `data.items[0].pri`, `ro`. */
const TYPED_PATH =
  /(?:^|[^A-Za-z0-9_.\]"`])([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]*|\[[0-9]+\]|\["[A-Za-z0-9_-]*"\])*)$/;
/** A name a call writes without backquotes (expression-tokens.ts, NAME). */
const PLAIN_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Completion inside an expression written as text, from what is typed before the cursor (the
 * text rarely reads while it is typed): after a root and `.` the members the entity schema gives
 * there, after `params.` the params, after `functions.` the functions; where a name starts, the
 * variable roots, the core operators with their help, the custom operators and the functions,
 * each inserted as the text calls it. Inside a string nothing; inside backquotes the custom operators.
 */
export function expressionTextCompletions(
  context: RulesetContext,
  inText: ExpressionTextAt,
  position: Position,
): CompletionItem[] {
  const before = inText.text.slice(0, inText.offset);
  const quote = openQuote(before);
  if (quote === "`") return customOperatorItems(context);
  if (quote !== undefined) return [];
  const typed = TYPED_PATH.exec(before)?.[1] ?? "";
  // `data.items[0].x` is the path `data.items.0.x`, as the parser reads it.
  const path = typed.replace(/\[([0-9]+)\]/g, ".$1").replace(/\["([A-Za-z0-9_-]*)"\]/g, ".$1");
  if (!path.includes(".")) return nameItems(context);
  // After a closing bracket a member starts with `.` or `[`: nothing to offer yet.
  if (!/\.[A-Za-z0-9_]*$/.test(typed)) return [];
  const segments = path.split(".");
  if (segments[0] === FUNCTIONS_PREFIX && segments.length === 2) return functionItems(context);
  return variableCompletions(context, inText.path, path, position);
}

/** Where a name starts: what a value may begin with. */
function nameItems(context: RulesetContext): CompletionItem[] {
  const core = new Set<string>(CORE_OPERATORS);
  return [
    ...variableRootItems(),
    ...CORE_OPERATORS.map((name) => operatorItem(name)),
    ...customOperatorItems(context).map((item) =>
      PLAIN_NAME.test(item.label) ? item : { ...item, insertText: `\`${item.label}\`` },
    ),
    // A function named like a core operator is called `functions.<name>(...)`.
    ...functionItems(context).map((item) =>
      core.has(item.label) ? { ...item, insertText: `${FUNCTIONS_PREFIX}.${item.label}` } : item,
    ),
  ];
}

/** The quote a text before the cursor leaves open: `"` in a string, `` ` `` in a quoted name, else undefined. */
function openQuote(before: string): string | undefined {
  let quote: string | undefined;
  for (let index = 0; index < before.length; index++) {
    const char = before[index]!;
    if (quote === '"' && char === "\\") index++;
    else if (quote === undefined && (char === '"' || char === "`")) quote = char;
    else if (char === quote) quote = undefined;
  }
  return quote;
}
