import type { EvaluationResult } from "../evaluation/evaluation-result.ts";
import type { ExplainedNode, Explanation, RuleExplanation } from "./explanation.ts";
import type { RequestWarning } from "../schema/request-warning.ts";
import type { JsonValue } from "../value/json-value.ts";

/**
 * An explained evaluation for people (`evaluate --explain --format text`, failing golden tests):
 * the outcome, one line per rule with its status, and for `full` each expression laid out as a
 * tree, one node a line with its value after `=`, the leaves that decided marked `<- decided`.
 */
export function explanationText(result: EvaluationResult): string {
  const lines: string[] = [`${result.ruleset} ${result.version}: ${result.decision}`];
  for (const warning of result.warnings ?? []) lines.push(`  warning ${requestWarningText(warning)}`);
  for (const finding of result.findings) {
    lines.push(
      `  finding ${finding.code} (${finding.severity}${finding.blocking ? ", blocking" : ""}) from ${finding.rule}: ${finding.message}`,
    );
  }
  for (const effect of result.effects)
    lines.push(
      `  effect ${effect.field} ${effect.type === "value" ? `= ${JSON.stringify(effect.value)}` : JSON.stringify(effect.set)} from ${effect.rule}`,
    );
  for (const command of result.commands) lines.push(`  command ${String(command.name)} from ${command.rule}`);
  if (result.explanation !== undefined) lines.push(...explanationLines(result.explanation));
  return `${lines.join("\n")}\n`;
}

/** `DATA_INVALID /data/amount: message: did you mean "x"?`: how a request does not fit its ruleset (schema enforcement). */
export function requestWarningText(warning: RequestWarning): string {
  return `${warning.code}${warning.pointer === undefined ? "" : ` ${warning.pointer}`}: ${warning.message}${warning.didYouMean === undefined ? "" : `: did you mean ${JSON.stringify(warning.didYouMean)}?`}`;
}

export function explanationLines(explanation: Explanation): string[] {
  const lines: string[] = [];
  const { entity, operation } = explanation.unmatched ?? {};
  if (entity !== undefined)
    lines.push(
      `no rule targets the entity ${JSON.stringify(entity.given)}${entity.didYouMean === undefined ? "" : `: did you mean ${JSON.stringify(entity.didYouMean)}?`}`,
    );
  if (operation !== undefined)
    lines.push(
      `no rule names the operation ${JSON.stringify(operation.given)}${operation.didYouMean === undefined ? "" : `: did you mean ${JSON.stringify(operation.didYouMean)}?`}`,
    );
  for (const resolution of explanation.resolutions) {
    lines.push(
      `resolution ${String(resolution.type)} of ${String(resolution.rule)}: ${resolution.applied ? "applied" : `not applied (${resolution.reason})`}`,
    );
  }
  const width = Math.max(0, ...explanation.rules.map((rule) => rule.status.length));
  for (const rule of explanation.rules) lines.push(...ruleLines(rule, width));
  return lines;
}

/** One rule's status line, then in `full` mode its trees, for people. */
export function ruleLines(rule: RuleExplanation, width = rule.status.length): string[] {
  let line = `${rule.status.padEnd(width)}  ${rule.rule} (${rule.kind})`;
  if (rule.status === "not-selected") line += `: ${String(rule.because)}`;
  if (rule.status === "error") line += `: ${rule.message}`;
  if (ranOnNothing(rule)) line += ": ran on no item or field";
  if (rule.field !== undefined) line += ` at ${rule.field}`;
  const lines = [line];
  const deciding = new Set(Array.isArray(rule.because) ? rule.because : []);
  const tree = (label: string, node: ExplainedNode, pointer: string): void => {
    lines.push(`    ${label}:`);
    nodeLines(node, pointer, 3, deciding, lines);
  };
  if (rule.when !== undefined) tree("when", rule.when, "/when");
  if (rule.assert !== undefined) tree("assert", rule.assert, "/assert");
  rule.assign?.forEach((node, index) => tree(`assign ${index}`, node, `/assign/${index}`));
  for (const [name, node] of Object.entries(rule.args ?? {})) tree(`arg ${name}`, node, `/args/${name}`);
  rule.commands?.forEach((command, index) => {
    command.idempotencyKey.forEach((node, part) =>
      tree(`command ${index} key ${part}`, node, `/commands/${index}/idempotencyKey/${part}`),
    );
    for (const [name, node] of Object.entries(command.payload))
      tree(`command ${index} payload ${name}`, node, `/commands/${index}/payload/${name}`);
  });
  return lines;
}

/**
 * A validation rule run per item of a list or per field of a type that passed on none: a full
 * entry shows no item or field and an assertion never evaluated. "passed" alone would read as if
 * its assertion held.
 */
function ranOnNothing(rule: RuleExplanation): boolean {
  return (
    rule.status === "passed" && rule.kind === "validation" && rule.field === undefined && rule.assert?.skipped === true
  );
}

function nodeLines(
  node: ExplainedNode,
  pointer: string,
  depth: number,
  deciding: ReadonlySet<string>,
  lines: string[],
): void {
  const outcome = node.skipped
    ? "(not evaluated)"
    : node.error !== undefined
      ? `! ${node.error}`
      : `= ${valueText(node.value ?? null)}${node.truncated ? " (cut)" : ""}`;
  const item = node.item === undefined ? "" : ` (shown for item ${node.item})`;
  lines.push(
    `${"  ".repeat(depth)}${nodeLabel(node)} ${outcome}${item}${deciding.has(pointer) ? "   <- decided" : ""}`,
  );
  node.args?.forEach((arg, index) => nodeLines(arg, `${pointer}/args/${index}`, depth + 1, deciding, lines));
}

/** A node's own part: the path of a variable, the text of a literal, the name of an operator or function. */
function nodeLabel(node: ExplainedNode): string {
  const expr = node.expr;
  if (typeof expr === "object" && expr !== null && !Array.isArray(expr)) {
    if (typeof expr.var === "string") return expr.var;
    if (typeof expr.op === "string") return expr.op;
    if (typeof expr.fn === "string") return `fn ${expr.fn}`;
  }
  return valueText(expr);
}

function valueText(value: JsonValue): string {
  const text = JSON.stringify(value);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
