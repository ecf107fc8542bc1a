import type { Channel } from "../bundle/channel.ts";
import type { PreparedRule } from "../evaluation/prepared-rule.ts";
import type { JsonObject, JsonValue } from "../value/json-value.ts";
import { enforcedOn, fitsView, runsOnTrigger } from "../evaluation/rule-selection.ts";
import type { NotSelectedReason } from "./explanation.ts";

/** What of a request decides which rules take part (specification 8, Selection). */
export interface SelectionRequest {
  readonly entity: string;
  readonly operation: string;
  readonly channel: Channel;
  /** Only a client evaluation's trigger selects. */
  readonly trigger: JsonValue | undefined;
  readonly view: JsonObject | null;
}

/**
 * The first selection test a rule fails, in the order a reader checks them, or undefined when it
 * takes part. An action rule on a client manifest never runs (actions are the server's), which
 * is `channel`.
 */
export function notSelectedBecause(rule: PreparedRule, request: SelectionRequest): NotSelectedReason | undefined {
  if (!rule.enabled) return "disabled";
  if (rule.entity !== undefined && rule.entity !== request.entity) return "entity";
  if (!rule.operations.has(request.operation)) return "operation";
  if (rule.kind === "action" && request.channel !== "server") return "channel";
  if (!enforcedOn(rule, request.channel)) return "enforcement";
  if (
    request.channel === "client" &&
    request.trigger !== undefined &&
    request.trigger !== null &&
    !runsOnTrigger(rule, request.trigger)
  )
    return "trigger";
  if (request.view !== null && !fitsView(rule, request.view)) return "view";
  return undefined;
}
