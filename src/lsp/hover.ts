import { MarkupKind, type Hover } from "vscode-languageserver/node";
import { isJsonObject, listAt, objectAt, stringAt } from "../engine/value/json-access.ts";
import type { JsonValue } from "../engine/value/json-value.ts";
import { OPERATOR_HELP, VAR_ROOT_HELP } from "./operator-help.ts";
import { ruleAt, type RulesetContext } from "./ruleset-context.ts";
import { schemaPlace } from "./schema-members.ts";
import type { SourcePathAt } from "./source-path-at.ts";

/**
 * Hover on a name of a ruleset source: an operator's arguments and what it gives, a param's value
 * and type, a message key's text in every locale, a data path's schema type and description, a
 * function's parameters, a rule's kind, target, operations and channel, a parent ruleset's title.
 */
export function hoverAt(context: RulesetContext, at: SourcePathAt): Hover | null {
  const markdown = hoverText(context, at);
  return markdown === undefined ? null : { contents: { kind: MarkupKind.Markdown, value: markdown } };
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
    case "fn": {
      const fn = objectAt(context.functions[value]);
      return context.functions[value] === undefined
        ? undefined
        : `function **${value}**(${listAt(fn.params).map(String).join(", ")})${fn.description ? `\n\n${String(fn.description)}` : ""}`;
    }
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
