import type { EvaluationResult } from "../evaluation/evaluation-result.ts";
import type { RequestWarning } from "../schema/request-warning.ts";
import { decisionWords, summaryWords } from "./decision-wording.ts";
import { decidingPointers, explainedTrees } from "./explained-trees.ts";
import type { ExplainedNode, Explanation, RuleExplanation } from "./explanation.ts";
import { wordsText } from "./explanation-words.ts";
import { CUT_WORDS, DECIDED_WORDS, isLiteral, itemShownWords, nodeOutcome } from "./node-wording.ts";
import { resolutionLabel, resolutionNameWords, resolutionReasonWords } from "./resolution-wording.ts";
import { statusLabel } from "./rule-status-wording.ts";
import { unmatchedWords } from "./unmatched-wording.ts";
import type { ExplanationContext } from "./wording-context.ts";

/**
 * An explained evaluation for people (`evaluate --explain --format text`): the outcome and why,
 * then one line per rule with its status and why (its summary), and for `full` each expression
 * laid out as a tree, one node a line, its text with its value after `→`, the leaves that decided
 * marked. The words are the explorer's (the *-wording.ts files beside this one); this file only
 * lays them out as lines.
 * `context` is what the caller knows beside the result: the request and the manifest's rules make
 * the words name what a rule asks and what the request gave.
 */
export function explanationText(result: EvaluationResult, context: Omit<ExplanationContext, "result"> = {}): string {
  const lines: string[] = [
    `${result.ruleset} ${result.version}: ${result.decision} (${wordsText(decisionWords(result))})`,
  ];
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
  if (result.explanation !== undefined) lines.push(...explanationLines(result.explanation, { ...context, result }));
  return `${lines.join("\n")}\n`;
}

/** `DATA_INVALID /data/amount: message: did you mean "x"?`: how a request does not fit its ruleset (schema enforcement). */
export function requestWarningText(warning: RequestWarning): string {
  return `${warning.code}${warning.pointer === undefined ? "" : ` ${warning.pointer}`}: ${warning.message}${warning.didYouMean === undefined ? "" : `: did you mean ${JSON.stringify(warning.didYouMean)}?`}`;
}

/** The explanation's lines: misspelt names, what became of each resolution, the counts, then every rule. */
export function explanationLines(explanation: Explanation, context: ExplanationContext = {}): string[] {
  const lines: string[] = [];
  if (explanation.unmatched !== undefined) lines.push(...unmatchedWords(explanation.unmatched, context).map(wordsText));
  for (const resolution of explanation.resolutions) {
    lines.push(
      `resolution ${wordsText(resolutionNameWords(resolution))}, ${resolutionLabel(resolution)}: ${wordsText(resolutionReasonWords(resolution, context))}`,
    );
  }
  // Counts say something only of several rules (`evaluate --rule` keeps one).
  if (explanation.rules.length > 1) lines.push(wordsText(summaryWords(explanation)));
  const width = Math.max(0, ...explanation.rules.map((rule) => statusLabel(rule.status).length));
  for (const rule of explanation.rules) lines.push(...ruleLines(rule, width, context));
  return lines;
}

/** One rule's status line and why (the summary the engine said it with), then in `full` mode its trees, for people. */
export function ruleLines(
  rule: RuleExplanation,
  width = statusLabel(rule.status).length,
  context: ExplanationContext = {},
): string[] {
  const lines = [`${statusLabel(rule.status).padEnd(width)}  ${rule.rule} (${rule.kind}): ${rule.summary}`];
  const deciding = decidingPointers(rule);
  for (const tree of explainedTrees(rule, context)) {
    lines.push(`    ${tree.label}:`);
    nodeLines(tree.node, tree.pointer, 3, deciding, lines);
  }
  return lines;
}

function nodeLines(
  node: ExplainedNode,
  pointer: string,
  depth: number,
  deciding: ReadonlySet<string>,
  lines: string[],
): void {
  const outcome = nodeOutcome(node);
  // A literal's value is itself: it is not repeated.
  const shown =
    outcome.kind !== "value"
      ? ` (${outcome.text})`
      : isLiteral(node.expr)
        ? ""
        : ` → ${outcome.text}${outcome.cut ? ` ${CUT_WORDS}` : ""}`;
  const item = node.item === undefined ? "" : ` (${itemShownWords(node.item)})`;
  lines.push(
    `${"  ".repeat(depth)}${node.text}${shown}${item}${deciding.has(pointer) ? `   <- ${DECIDED_WORDS}` : ""}`,
  );
  node.args?.forEach((arg, index) => nodeLines(arg, `${pointer}/args/${index}`, depth + 1, deciding, lines));
}
