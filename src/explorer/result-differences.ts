import type { EvaluationResult, Finding } from "../browser/rule-cascade.ts";

/** Where the server's answer and the page's differ. */
export interface ResultDifferences {
  /** Findings of rules the client manifest does not hold: the server enforces them alone. */
  readonly serverOnlyRules: ReadonlySet<string>;
  /** Server findings the page did not compute (of server-only rules, or computed differently). */
  readonly serverOnlyFindings: ReadonlySet<Finding>;
  /** Page findings the server did not compute. */
  readonly clientOnlyFindings: ReadonlySet<Finding>;
  readonly sameDecision: boolean;
}

/** A finding's identity across the two answers: its rule, code and fields (messages are equal when those are). */
function findingKey(finding: Finding): string {
  return JSON.stringify([finding.rule, finding.code, finding.fields]);
}

export function compareResults(
  client: EvaluationResult,
  server: EvaluationResult,
  clientRuleIds: ReadonlySet<string>,
): ResultDifferences {
  const clientKeys = new Set(client.findings.map(findingKey));
  const serverKeys = new Set(server.findings.map(findingKey));
  const serverOnlyRules = new Set<string>();
  for (const finding of server.findings) if (!clientRuleIds.has(finding.rule)) serverOnlyRules.add(finding.rule);
  return {
    serverOnlyRules,
    serverOnlyFindings: new Set(server.findings.filter((finding) => !clientKeys.has(findingKey(finding)))),
    clientOnlyFindings: new Set(client.findings.filter((finding) => !serverKeys.has(findingKey(finding)))),
    sameDecision: client.decision === server.decision,
  };
}
