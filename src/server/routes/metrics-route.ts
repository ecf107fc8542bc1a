import type { RouteHandler } from "../http/route-context.ts";
import { EXPOSITION_CONTENT_TYPE } from "../metrics/exposition-text.ts";
import type { Scope } from "../auth/caller.ts";

const METRICS_SCOPES: readonly Scope[] = ["operate", "evaluate"];

/**
 * `GET /metrics`: the Prometheus exposition, for callers with the `operate` scope, or `evaluate` as
 * an evaluation is protected (open in open mode); with several processes, the whole server's.
 */
export const metricsExposition: RouteHandler = async (request, { auth, exposition, logFields }) => {
  await auth.require(request, METRICS_SCOPES, logFields);
  return new Response(await exposition(), {
    headers: { "Content-Type": EXPOSITION_CONTENT_TYPE, "Cache-Control": "no-store" },
  });
};
