import type { Logger } from "../logging/logger.ts";
import type { RulesSnapshot } from "../snapshot/rules-snapshot.ts";
import type { BearerToken } from "./bearer-token.ts";
import type { RulesetEvaluator } from "../evaluation/ruleset-evaluator.ts";

/** What a handler may read: the snapshot being served (current at the start of the request), and the server's state. */
export interface RouteContext {
  readonly snapshot: RulesSnapshot;
  readonly token: BearerToken;
  readonly draining: boolean;
  readonly logger: Logger;
  readonly evaluator: RulesetEvaluator;
  /** Path parameters, percent-decoded. */
  readonly params: Readonly<Record<string, string>>;
  /** Members added to this request's log line (evaluations add ruleset and decision). */
  readonly logFields: Record<string, unknown>;
}

export type RouteHandler = (request: Request, context: RouteContext) => Response | Promise<Response>;
