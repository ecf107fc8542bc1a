import type { TSchema } from "@sinclair/typebox";
import { CompletionItemKind, type CompletionItem, type Position } from "vscode-languageserver/node";
import { CORE_OPERATORS, RULE_KINDS } from "../compiler/schema/names.ts";
import { RuleMembers } from "../compiler/schema/rule.ts";
import { RulesetDocument } from "../compiler/schema/ruleset-document.ts";
import { listAt, objectAt, stringAt } from "../engine/value/json-access.ts";
import { expressionTextAt } from "./expression-text-at.ts";
import { expressionTextCompletions } from "./expression-text-completion.ts";
import { customOperatorItems, functionItems, operatorItem, variableCompletions } from "./name-completions.ts";
import type { RulesetContext } from "./ruleset-context.ts";
import { sourcePathAt } from "./source-path-at.ts";
import { lineOf, offsetAt } from "./text-range.ts";

/** Values a member takes from a fixed list. */
const FIXED_VALUES: Readonly<Record<string, readonly string[]>> = {
  kind: RULE_KINDS,
  severity: ["info", "warning", "error"],
  enforcement: ["client", "server", "both"],
  triggers: ["load", "change", "blur", "submit"],
  overridePolicy: ["locked", "tighten-only", "open"],
  acknowledgement: ["none", "required"],
  mode: ["always", "ifMissing"],
};

/**
 * Completion at a position of a ruleset source: operator names after `op:`, `var` roots and the
 * data paths of the rule's entity schema after `var:`, `params.` names, functions after `fn:`,
 * message keys after `message:`, entity names, operations, rule kinds and other fixed values,
 * ruleset ids after `ruleset:`, inherited rule ids in `overrides`, and member names where a key goes.
 * Inside an expression written as text, the names the text may use there (expression-text-completion.ts).
 */
export function completionsAt(context: RulesetContext, text: string, position: Position): CompletionItem[] {
  const line = lineOf(text, position.line) ?? "";
  const before = line.slice(0, position.character);
  const offset = offsetAt(text, position);
  const inText = expressionTextAt(context.document, text, sourcePathAt(text, offset), offset);
  if (inText !== undefined) return expressionTextCompletions(context, inText, position);
  const typed = /(?:^|[\s{,[])["']?([A-Za-z$][\w$-]*)["']?\s*:\s*["']?([^"'\s,{}[\]]*)$/.exec(before);
  if (typed !== null) return valueCompletions(context, text, offset, typed[1]!, typed[2]!, position);
  const listItem = /(?:^|[\s{,])["']?(operations|triggers)["']?\s*:\s*\[[^\]]*?["']?([\w-]*)$/.exec(before);
  if (listItem !== null) return valueCompletions(context, text, offset, listItem[1]!, listItem[2]!, position);
  const blockItem = /^\s*-\s+["']?([\w-]*)$/.exec(before);
  if (blockItem !== null) {
    const at = sourcePathAt(text, Math.max(0, offset - 1));
    const member = [...(at?.path ?? [])].reverse().find((segment) => !/^[0-9]+$/.test(segment));
    if (member === "operations" || member === "triggers")
      return valueCompletions(context, text, offset, member, blockItem[1]!, position);
  }
  if (/^\s*(?:-\s+)?["']?[\w$-]*$/.test(before)) return memberCompletions(text, offset);
  return [];
}

function valueCompletions(
  context: RulesetContext,
  text: string,
  offset: number,
  key: string,
  partial: string,
  position: Position,
): CompletionItem[] {
  const at = sourcePathAt(text, offset);
  const path = at?.path ?? [];
  switch (key) {
    case "op":
      return [...CORE_OPERATORS.map((name) => operatorItem(name)), ...customOperatorItems(context)];
    case "var":
      return variableCompletions(context, path, partial, position);
    case "fn":
      return functionItems(context);
    case "message":
      return messageKeys(context).map(([name, textOfKey]) => ({
        label: name,
        kind: CompletionItemKind.Text,
        detail: textOfKey,
      }));
    case "entity":
      return [...new Set([...context.entitySchemas.keys(), ...Object.keys(context.entities)])].map((name) => ({
        label: name,
        kind: CompletionItemKind.Class,
      }));
    case "ruleset":
      return context.rulesetIds
        .filter((id) => id !== stringAt(objectAt(context.document?.metadata).id))
        .map((id) => ({ label: id, kind: CompletionItemKind.Module }));
    case "rule":
      return path[0] === "overrides"
        ? inheritedRules(context).map((id) => ({ label: id, kind: CompletionItemKind.Function }))
        : [];
    case "operations":
      return knownOperations(context).map((name) => ({ label: name, kind: CompletionItemKind.EnumMember }));
    default:
      return (FIXED_VALUES[key] ?? []).map((value) => ({ label: value, kind: CompletionItemKind.EnumMember }));
  }
}

export function messageKeys(context: RulesetContext): [string, string][] {
  const keys = new Map<string, string>();
  for (const catalog of Object.values(context.messages))
    for (const [key, value] of Object.entries(objectAt(catalog))) if (!keys.has(key)) keys.set(key, String(value));
  return [...keys];
}

function inheritedRules(context: RulesetContext): string[] {
  const own = new Set(listAt(context.document?.rules).map((rule) => stringAt(objectAt(rule).id)));
  return listAt(context.resolved?.resolved.rules)
    .map((rule) => stringAt(objectAt(rule).id))
    .filter((id) => !own.has(id));
}

function knownOperations(context: RulesetContext): string[] {
  const operations = new Set(["create", "update", "delete"]);
  for (const rule of listAt(context.resolved?.resolved.rules ?? context.document?.rules))
    for (const operation of listAt(objectAt(rule).operations)) operations.add(String(operation));
  return [...operations].sort();
}

/**
 * Where a key goes: the members the ruleset schema allows in the mapping around it. The line being
 * typed rarely parses, so the mapping is found from a sibling key above at the same indentation.
 */
function memberCompletions(text: string, offset: number): CompletionItem[] {
  const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
  const indentation = /^\s*(?:-\s+)?/.exec(text.slice(lineStart, offset))![0].length;
  // Without the line being typed, which keeps the rest from parsing.
  const lineEnd = text.indexOf("\n", offset);
  const parsed = text.slice(0, lineStart) + (lineEnd === -1 ? "" : text.slice(lineEnd + 1));
  let path: readonly string[] | undefined;
  for (let end = lineStart - 1; end > 0 && path === undefined; ) {
    const start = text.lastIndexOf("\n", end - 1) + 1;
    const sibling = /^(\s*(?:-\s+)?)["']?[\w$-]+["']?\s*:/.exec(text.slice(start, end));
    if (sibling !== null && sibling[1]!.length === indentation) {
      const at = sourcePathAt(parsed, start + sibling[1]!.length);
      if (at?.part === "key") path = at.path.slice(0, -1);
    } else if (sibling !== null && sibling[1]!.length < indentation) break;
    end = start - 1;
  }
  path ??= indentation === 0 ? [] : undefined;
  if (path === undefined) return [];
  const names =
    path.length === 0
      ? memberNames(RulesetDocument)
      : path.length === 2 && path[0] === "rules"
        ? memberNames(RuleMembers)
        : [];
  return names.map((name) => ({ label: name, kind: CompletionItemKind.Property }));
}

/** The members a schema of the ruleset format names (an extensible object is the first member of an `allOf`). */
function memberNames(schema: TSchema): string[] {
  const object = (schema.allOf as TSchema[] | undefined)?.find((member) => member.properties !== undefined) ?? schema;
  return Object.keys(object.properties ?? {});
}
