import { code, listed, named, type Words } from "./explanation-words.ts";
import type { ResolutionExplanation } from "./explanation.ts";
import type { ExplanationContext, RuleFacts } from "./wording-context.ts";

/** Whether a resolution the request gave was applied, in a word or two (the explorer's badge). */
export function resolutionLabel(resolution: ResolutionExplanation): string {
  return resolution.applied ? "applied" : "not applied";
}

/** Which resolution: `accept-risk of transfer.amount.limit`. */
export function resolutionNameWords(resolution: ResolutionExplanation): Words {
  return [named(resolution.type), " of ", named(resolution.rule)];
}

const RESOLVED: Readonly<Record<string, string>> = { acknowledge: "acknowledged", "accept-risk": "accepted" };

/**
 * What became of a resolution the request gave: applied, or why not. The rule's finding in the
 * context's result says which resolution it takes and who may accept it; the rule's facts say so
 * too when there is no finding to read.
 */
export function resolutionReasonWords(resolution: ResolutionExplanation, context: ExplanationContext = {}): Words {
  if (resolution.applied)
    return [`the finding is ${RESOLVED[String(resolution.type)] ?? "resolved"} and no longer blocks`];
  const blocking = context.result?.findings.find((finding) => finding.rule === resolution.rule && finding.blocking);
  switch (resolution.reason) {
    case "rule-unknown":
      return ["no rule of this manifest has this id"];
    case "no-finding":
      return ["the rule produced no finding, so there is nothing to resolve"];
    case "not-blocking":
      return ["the rule's finding does not block, so there is nothing to resolve"];
    case "type-not-accepted":
      if (blocking === undefined) return ["the rule's finding is not resolved by ", named(resolution.type)];
      return blocking.resolution === "none"
        ? ["the rule's finding cannot be resolved at all"]
        : ["the rule's finding is resolved by ", code(blocking.resolution), ", not ", named(resolution.type)];
    case "justification-missing":
      return ["accepting this risk needs a justification"];
    case "role-not-allowed": {
      const rule = typeof resolution.rule === "string" ? context.rules?.get(resolution.rule) : undefined;
      const roles = blocking?.acceptableBy ?? rule?.acceptance?.roles;
      return roles === undefined || roles.length === 0
        ? ["the actor has no role that may accept this risk"]
        : [...acceptanceWords(roles), ", and the actor has none of these roles"];
    }
    default:
      return resolution.reason === undefined ? ["not applied"] : ["the engine's reason is ", code(resolution.reason)];
  }
}

/** Who may accept an error's risk: `only treasury-manager or cfo may accept this risk`. */
export function acceptanceWords(roles: readonly string[]): Words {
  return roles.length === 0
    ? ["any actor may accept this risk"]
    : ["only ", ...listed(roles, " or "), " may accept this risk"];
}

/**
 * How a rule's finding may be resolved, as the rule declares it (the explorer's rule cards):
 * undefined when it cannot be.
 */
export function findingResolutionWords(rule: RuleFacts): Words | undefined {
  const ways: Words[] = [];
  if (rule.acknowledgement === "required") ways.push(["it blocks until acknowledged"]);
  if (rule.acceptance?.allowed === true) {
    const justified = (rule.acceptance.justification ?? "required") !== "none";
    ways.push([...acceptanceWords(rule.acceptance.roles ?? []), justified ? ", with a justification" : ""]);
  }
  return ways.length === 0 ? undefined : ways.flatMap((way, index) => (index === 0 ? way : ["; ", ...way]));
}
