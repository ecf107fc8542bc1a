import type { RouteHandler } from "../http/route-context.ts";
import { jsonResponse } from "../http/json-response.ts";

/** `GET /healthz`: liveness, also while draining. */
export const health: RouteHandler = () => jsonResponse({ status: "ok" }, 200, { "Cache-Control": "no-store" });

/**
 * `GET /readyz`: 503 while draining; `loadedAt` is the time of the last successful load;
 * `lastReload` the last reload attempted. A refused reload leaves readiness at 200: the previous
 * rules are served.
 */
export const readiness: RouteHandler = (_request, { snapshot, draining, lastReload }) => {
  const body: Record<string, unknown> = { status: draining ? "draining" : "ready", loadedAt: snapshot.loadedAt, rulesets: snapshot.rulesets.size };
  if (lastReload !== undefined) body.lastReload = lastReload;
  return jsonResponse(body, draining ? 503 : 200, { "Cache-Control": "no-store" });
};
