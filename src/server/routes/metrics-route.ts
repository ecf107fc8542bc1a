import type { RouteHandler } from "../http/route-context.ts";
import { EXPOSITION_CONTENT_TYPE } from "../metrics/exposition-text.ts";

/** `GET /metrics`: the Prometheus exposition, protected like an evaluation (open in open mode); with several processes, the whole server's. */
export const metricsExposition: RouteHandler = async (request, { token, exposition }) => {
  token.require(request);
  return new Response(await exposition(), {
    headers: { "Content-Type": EXPOSITION_CONTENT_TYPE, "Cache-Control": "no-store" },
  });
};
