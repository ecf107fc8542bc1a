import { CompletionItemKind, type CompletionItem, type Position, type Range } from "vscode-languageserver/node";
import { VAR_ROOTS } from "../compiler/schema/names.ts";
import { listAt, objectAt, stringAt } from "../engine/value/json-access.ts";
import { OPERATOR_HELP, VAR_ROOT_HELP } from "./operator-help.ts";
import { ruleAt, type RulesetContext } from "./ruleset-context.ts";
import { schemaPlace } from "./schema-members.ts";

/**
 * Completions of the names an expression uses, whichever form it is written in (a tree's `op:`,
 * `var:` and `fn:`, or its text): operators with their help, variable roots and the members of
 * a path, the ruleset's functions.
 */

export function operatorItem(name: string): CompletionItem {
  const help = OPERATOR_HELP[name];
  return {
    label: name,
    kind: CompletionItemKind.Operator,
    ...(help === undefined ? {} : { detail: `${name}(${help.args})`, documentation: help.summary }),
  };
}

export function customOperatorItems(context: RulesetContext): CompletionItem[] {
  return Object.keys(context.operators).map((name) => ({
    label: name,
    kind: CompletionItemKind.Operator,
    detail: "custom operator",
  }));
}

export function functionItems(context: RulesetContext): CompletionItem[] {
  return Object.entries(context.functions).map(([name, fn]) => ({
    label: name,
    kind: CompletionItemKind.Function,
    detail: `(${listAt(objectAt(fn).params).map(String).join(", ")})`,
    documentation: stringAt(objectAt(fn).description) || undefined,
  }));
}

export function variableRootItems(): CompletionItem[] {
  return VAR_ROOTS.map((root) => ({
    label: root,
    kind: CompletionItemKind.Variable,
    documentation: VAR_ROOT_HELP[root],
  }));
}

/**
 * A path being typed (`partial`, ending at `position`): without a dot the roots; after `data.`
 * (or `original.`) the members the schema of the entity of the rule at `path` gives there; after
 * `params.` the params.
 */
export function variableCompletions(
  context: RulesetContext,
  path: readonly string[],
  partial: string,
  position: Position,
): CompletionItem[] {
  const dot = partial.lastIndexOf(".");
  if (dot === -1) return variableRootItems();
  const segments = partial.slice(0, dot).split(".");
  // Only the last segment is replaced: editors differ in what a word is.
  const range: Range = {
    start: { line: position.line, character: position.character - (partial.length - dot - 1) },
    end: position,
  };
  const item = (label: string, kind: CompletionItemKind, detail?: string, documentation?: string): CompletionItem => ({
    label,
    kind,
    textEdit: { range, newText: label },
    ...(detail === undefined ? {} : { detail }),
    ...(documentation === undefined ? {} : { documentation }),
  });
  const root = segments[0]!;
  if (root === "params" && segments.length === 1) {
    return Object.entries(context.params).map(([name, param]) =>
      item(
        name,
        CompletionItemKind.Constant,
        stringAt(objectAt(param).type) || undefined,
        stringAt(objectAt(param).description) || undefined,
      ),
    );
  }
  if (root === "data" || root === "original") {
    const entity = stringAt(objectAt(ruleAt(context, path)?.target).entity);
    const schema = context.entitySchemas.get(entity);
    const place = schema === undefined ? undefined : schemaPlace(schema, segments.slice(1));
    if (place === undefined) return [];
    return [...place.members].map(([name, description]) =>
      item(name, CompletionItemKind.Field, undefined, description),
    );
  }
  return [];
}
