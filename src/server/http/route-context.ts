import type { Logger } from "../logging/logger.ts";
import type { RulesSnapshot } from "../snapshot/rules-snapshot.ts";
import type { Authenticator } from "../auth/authenticator.ts";
import type { RequestIdentity } from "./request-id.ts";
import type { RulesetEvaluator } from "../evaluation/ruleset-evaluator.ts";
import type { ServerMetrics } from "../metrics/server-metrics.ts";
import type { LastReload } from "../snapshot/last-reload.ts";
import type { BatchLimits } from "../config/batch-limits.ts";
import type { DecisionRecords } from "../evaluation/decision-records.ts";

/** What a handler may read: the snapshot being served (current at the start of the request), and the server's state. */
export interface RouteContext {
  readonly snapshot: RulesSnapshot;
  /** Who the request comes from and whether it may do what it asks (auth/authenticator.ts). */
  readonly auth: Authenticator;
  readonly draining: boolean;
  readonly logger: Logger;
  readonly evaluator: RulesetEvaluator;
  readonly metrics: ServerMetrics;
  /** What `/metrics` answers: this process's exposition, or, in a serving process of several, the whole server's. */
  readonly exposition: () => string | Promise<string>;
  /** How many items and bytes a batch of evaluations may have. */
  readonly batchLimits: BatchLimits;
  /** Decision records, when they are on. */
  readonly records: DecisionRecords | undefined;
  /** The last reload attempted since start-up, if any. */
  readonly lastReload: LastReload | undefined;
  /** Path parameters, percent-decoded. */
  readonly params: Readonly<Record<string, string>>;
  /** Members added to this request's log line (evaluations add the decision-log members). */
  readonly logFields: Record<string, unknown>;
  /** This request's id; a handler may answer with it (`headersWithRequestId`), else the router adds it. */
  readonly identity: RequestIdentity;
}

export type RouteHandler = (request: Request, context: RouteContext) => Response | Promise<Response>;
