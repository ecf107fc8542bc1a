import type { Finding } from "../evaluation/evaluation-result.ts";
import { mayAccept, type PreparedRule } from "../evaluation/prepared-rule.ts";
import { actorRoleSet } from "../evaluation/request-resolutions.ts";
import type { JsonObject } from "../value/json-value.ts";
import type { ResolutionExplanation } from "./explanation.ts";

/**
 * What became of each resolution a request gave (specification 8.1): applied, or why not. A
 * resolution is silently ignored by evaluation itself, which is what users asked to see.
 */
export function resolutionOutcomes(
  request: JsonObject,
  rulesById: ReadonlyMap<string, PreparedRule>,
  findings: readonly Finding[],
): ResolutionExplanation[] {
  const given = request.resolutions;
  if (!Array.isArray(given) || given.length === 0) return [];
  const roles = actorRoleSet(request.actor);
  return given.map((resolution) => {
    const { rule, type } = resolution as JsonObject;
    const outcome = (applied: boolean, reason?: ResolutionExplanation["reason"]): ResolutionExplanation =>
      reason === undefined
        ? { rule: rule ?? null, type: type ?? null, applied }
        : { rule: rule ?? null, type: type ?? null, applied, reason };
    const prepared = typeof rule === "string" ? rulesById.get(rule) : undefined;
    if (prepared === undefined) return outcome(false, "rule-unknown");
    const own = findings.filter((finding) => finding.rule === rule);
    if (own.length === 0) return outcome(false, "no-finding");
    if (own.some((finding) => finding.status !== "open" && finding.resolution === type)) return outcome(true);
    const resolvable = own.find((finding) => finding.blocking);
    if (resolvable === undefined) return outcome(false, "not-blocking");
    if (resolvable.resolution !== type) return outcome(false, "type-not-accepted");
    // Only accept-risk can be open with the right type: a role or a justification was missing.
    const acceptance = prepared.kind === "validation" ? prepared.acceptance : undefined;
    const roleHeld = acceptance === undefined || mayAccept(acceptance, roles);
    return outcome(false, roleHeld ? "justification-missing" : "role-not-allowed");
  });
}
