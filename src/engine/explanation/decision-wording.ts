import type { EvaluationResult } from "../evaluation/evaluation-result.ts";
import { counted, listed, type Words } from "./explanation-words.ts";
import type { Explanation, RuleStatus } from "./explanation.ts";
import { statusLabel } from "./rule-status-wording.ts";

/** Why the decision is what it is: the rules whose findings block it, or that none does. */
export function decisionWords(result: Pick<EvaluationResult, "findings">): Words {
  const blocking = result.findings.filter((finding) => finding.blocking);
  if (blocking.length === 0) return ["no finding blocks"];
  const rules = [...new Set(blocking.map((finding) => finding.rule))];
  return [`blocked by the finding${blocking.length === 1 ? "" : "s"} of `, ...listed(rules, " and ")];
}

/** The order in which the counts are said: what did something first. */
const STATUS_ORDER: readonly RuleStatus[] = ["fired", "error", "passed", "when-false", "not-selected"];

/** How many rules had each status: `32 rules: 7 fired, 14 passed, 6 when false, 5 not selected`. */
export function summaryWords(explanation: Pick<Explanation, "rules">): Words {
  const counts = STATUS_ORDER.map(
    (status) => [status, explanation.rules.filter((entry) => entry.status === status).length] as const,
  ).filter(([, count]) => count > 0);
  const total = counted(explanation.rules.length, "rule");
  return counts.length === 0
    ? [total]
    : [`${total}: ${counts.map(([status, count]) => `${count} ${statusLabel(status)}`).join(", ")}`];
}
