import { MarkupKind, type Hover } from "vscode-languageserver/node";
import { isJsonObject, listAt, objectAt, stringAt } from "../engine/value/json-access.ts";
import type { JsonValue } from "../engine/value/json-value.ts";
import { printExpressionText } from "../engine/expression-text/print-expression-text.ts";
import { valueAtPath } from "../engine/value/json-access.ts";
import { isExpressionPlace } from "./expression-text-at.ts";
import { OPERATOR_HELP, VAR_ROOT_HELP } from "./operator-help.ts";
import { ruleAt, type RulesetContext } from "./ruleset-context.ts";
import { schemaPlace } from "./schema-members.ts";
import type { SourcePathAt } from "./source-path-at.ts";

/**
 * Hover on a name of a ruleset source: an operator's arguments and what it gives, a param's value
 * and type, a message key's text in every locale, a data path's schema type and description, a
 * function's parameters and body, a rule's kind, target, operations and channel, a parent
 * ruleset's title. Inside an expression written as text, `at` is the node under the cursor
 * (expression-text-at.ts); on an expression written as a tree, its text is shown too.
 */
export function hoverAt(context: RulesetContext, at: SourcePathAt): Hover | null {
  const parts = [hoverText(context, at), at.inText ? undefined : treeAsText(context, at)].filter(
    (part) => part !== undefined,
  );
  return parts.length === 0 ? null : { contents: { kind: MarkupKind.Markdown, value: parts.join("\n\n---\n\n") } };
}

/**
 * On an expression written as a tree, its text (DECISIONS.md: wherever a person reads an
 * expression it is printed as text): on a call's `op` or `fn`, that call's; on the key of a place
 * an expression stands (`assert:`), the whole expression's.
 */
function treeAsText(context: RulesetContext, at: SourcePathAt): string | undefined {
  const member = at.path.at(-1);
  const nodePath = member === "op" || member === "fn" ? at.path.slice(0, -1) : at.part === "key" ? at.path : undefined;
  if (nodePath === undefined || !isExpressionPlace(context.document, nodePath)) return undefined;
  const text = printExpressionText(valueAtPath(context.document, nodePath));
  return text === undefined ? undefined : `as text:\n\n${expressionBlock(text)}`;
}

function expressionBlock(text: string): string {
  return `\`\`\`\n${text}\n\`\`\``;
}

function hoverText(context: RulesetContext, at: SourcePathAt): string | undefined {
  const { path } = at;
  const member = path[path.length - 1];
  const value = at.scalar ?? "";
  if (at.part === "key") {
    if (path[path.length - 2] === "params" && path.length === 2) return paramText(context, member!);
    return undefined;
  }
  switch (member) {
    case "op": {
      const help = OPERATOR_HELP[value];
      return help === undefined ? undefined : `**${value}**(${help.args})\n\n${help.summary}`;
    }
    case "var":
      return variableText(context, path, value);
    case "fn":
      return functionText(context, value);
    case "message":
      return path.includes("finding") ? messageText(context, value) : undefined;
    case "id":
      return path.length === 3 && path[0] === "rules" ? ruleText(objectAt(ruleAt(context, path))) : undefined;
    case "rule":
      return ruleById(context, value) === undefined ? undefined : ruleText(ruleById(context, value)!);
    case "ruleset": {
      const parent = context.directory.sources.find((source) => source.id === value)?.document;
      const metadata = objectAt(objectAt(parent).metadata);
      return parent === undefined
        ? undefined
        : `ruleset **${value}** ${stringAt(metadata.version)}${metadata.title ? `: ${String(metadata.title)}` : ""}`;
    }
    case "entity": {
      const schema = context.entitySchemas.get(value);
      const place = schema === undefined ? undefined : schemaPlace(schema, []);
      return place === undefined
        ? `entity **${value}**`
        : `entity **${value}**${place.description ? `: ${place.description}` : ""}\n\nmembers: ${[...place.members.keys()].join(", ")}`;
    }
    default:
      return undefined;
  }
}

function variableText(context: RulesetContext, path: readonly string[], value: string): string | undefined {
  const [root, ...segments] = value.split(".");
  if (root === "params" && segments.length >= 1) return paramText(context, segments[0]!);
  if ((root === "data" || root === "original") && segments.length > 0) {
    const entity = stringAt(objectAt(ruleAt(context, path)?.target).entity);
    const schema = context.entitySchemas.get(entity);
    const place = schema === undefined ? undefined : schemaPlace(schema, segments);
    if (place === undefined) return `\`${value}\`: not described by the ${entity || "entity"} schema`;
    return `\`${value}\`: ${place.kind ?? "any type"} (${entity} schema)${place.description ? `\n\n${place.description}` : ""}`;
  }
  const help = root === undefined ? undefined : VAR_ROOT_HELP[root];
  return help === undefined ? undefined : `\`${root}\`: ${help}`;
}

/** A function's parameters, description and body, the body as text. */
function functionText(context: RulesetContext, name: string): string | undefined {
  if (!Object.hasOwn(context.functions, name)) return undefined;
  const fn = objectAt(context.functions[name]);
  const lines = [`function **${name}**(${listAt(fn.params).map(String).join(", ")})`];
  if (fn.description !== undefined) lines.push(String(fn.description));
  const body = fn.body === undefined ? undefined : printExpressionText(fn.body);
  if (body !== undefined) lines.push(expressionBlock(body));
  return lines.join("\n\n");
}

function paramText(context: RulesetContext, name: string): string | undefined {
  if (!Object.hasOwn(context.params, name)) return undefined;
  const param = objectAt(context.params[name]);
  const lines = [`param **${name}**: ${stringAt(param.type) || "any"} = \`${JSON.stringify(param.default ?? null)}\``];
  if (param.overridePolicy !== undefined) lines.push(`override policy: ${String(param.overridePolicy)}`);
  if (param.description !== undefined) lines.push(String(param.description));
  return lines.join("\n\n");
}

function messageText(context: RulesetContext, key: string): string | undefined {
  const lines = Object.entries(context.messages).flatMap(([locale, catalog]) =>
    Object.hasOwn(objectAt(catalog), key) ? [`- ${locale}: ${String(objectAt(catalog)[key])}`] : [],
  );
  return lines.length === 0 ? undefined : `message **${key}**\n\n${lines.join("\n")}`;
}

function ruleById(context: RulesetContext, id: string): Record<string, JsonValue> | undefined {
  const rule = listAt(context.resolved?.resolved.rules ?? context.document?.rules).find(
    (candidate) => objectAt(candidate).id === id,
  );
  return isJsonObject(rule) ? rule : undefined;
}

function ruleText(rule: Record<string, JsonValue>): string {
  const target = objectAt(rule.target);
  const on =
    target.entity !== undefined
      ? `entity ${String(target.entity)}${target.field ? ` field ${String(target.field)}` : ""}`
      : target.type !== undefined
        ? `type ${String(target.type)}`
        : "no target";
  const lines = [
    `rule **${stringAt(rule.id)}**: ${stringAt(rule.kind) || "validation"} on ${on}`,
    `operations: ${listAt(rule.operations).map(String).join(", ")}`,
    `channel: ${stringAt(rule.enforcement) || "both"}`,
  ];
  if (rule.severity !== undefined) lines.push(`severity: ${String(rule.severity)}`);
  if (rule.origin !== undefined)
    lines.push(`from ${String(rule.origin)}${rule.overriddenBy ? `, overridden by ${String(rule.overriddenBy)}` : ""}`);
  return lines.join("\n\n");
}
