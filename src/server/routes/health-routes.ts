import type { RouteHandler } from "../http/route-context.ts";
import { jsonResponse } from "../http/json-response.ts";
import type { LastReload } from "../snapshot/last-reload.ts";
import { RECORDS_UNWRITABLE } from "../evaluation/decision-records.ts";

/** `GET /healthz`: liveness, also while draining. */
export const health: RouteHandler = () => jsonResponse({ status: "ok" }, 200, { "Cache-Control": "no-store" });

/**
 * `GET /readyz`: 503 while draining, and 503 `not-ready` with a `reason` while the server would
 * refuse every evaluation (decision records required and not writable: a load balancer should take
 * it out until they are); `loadedAt` is the time of the last successful load; `lastReload` the last
 * reload attempted; `source` where the rules came from. A refused reload leaves readiness at 200: the previous rules are served. The
 * endpoint is public, and a refusal's problems name rules, files and their text: only a request
 * with the `operate` scope sees them (the log has them too).
 */
export const readiness: RouteHandler = async (request, { snapshot, draining, lastReload, auth, records }) => {
  const reason = draining || records?.refusesEvaluations !== true ? undefined : RECORDS_UNWRITABLE;
  // `pid`: which process answered, since with RULE_SERVER_PROCESSES several serve the port.
  const body: Record<string, unknown> = {
    status: draining ? "draining" : reason === undefined ? "ready" : "not-ready",
  };
  if (reason !== undefined) body.reason = reason;
  Object.assign(body, { loadedAt: snapshot.loadedAt, rulesets: snapshot.rulesets.size, pid: process.pid });
  // Which release is served: the directory, or the registry reference or server with its digest, and who signed it.
  if (snapshot.source !== undefined) body.source = snapshot.source;
  if (lastReload !== undefined)
    body.lastReload =
      lastReload.problems === undefined || (await auth.permits(request, "operate"))
        ? lastReload
        : withoutProblems(lastReload);
  return jsonResponse(body, body.status === "ready" ? 200 : 503, { "Cache-Control": "no-store" });
};

function withoutProblems({ problems: _problems, ...publicPart }: LastReload): LastReload {
  return publicPart;
}
