import type { Logger } from "../logging/logger.ts";
import { preflightResponse } from "./cors.ts";
import { HttpError, problemResponse } from "./http-error.ts";
import type { RouteContext, RouteHandler } from "./route-context.ts";

/**
 * The route table handed to `Bun.serve`. Each path lists its handlers by method; HEAD is served
 * wherever GET is, another method is 405 with `Allow`, public paths answer CORS preflights.
 * Path parameters are decoded here so that malformed percent-encoding is a 400, not a guess.
 */
export interface RouteDefinition {
  readonly GET?: RouteHandler;
  readonly POST?: RouteHandler;
  /** Answer `OPTIONS` preflights (public endpoints only). */
  readonly preflight?: boolean;
  /** Health probes are not logged. */
  readonly quiet?: boolean;
}

export type ContextFactory = (params: Record<string, string>, logFields: Record<string, unknown>) => RouteContext;

type BunRouteHandler = (request: Request) => Promise<Response>;

export function buildRouteTable(definitions: Readonly<Record<string, RouteDefinition>>, context: ContextFactory, logger: Logger): Record<string, BunRouteHandler> {
  const table: Record<string, BunRouteHandler> = {};
  for (const [pattern, definition] of Object.entries(definitions)) {
    const allow = [...(definition.GET ? ["GET", "HEAD"] : []), ...(definition.POST ? ["POST"] : []), ...(definition.preflight ? ["OPTIONS"] : [])].join(", ");
    table[pattern] = (request) =>
      handleLogged(request, definition.quiet ?? false, logger, async (logFields, path) => {
        const params = decodeParams(pattern, path);
        if (request.method === "OPTIONS" && definition.preflight) return preflightResponse();
        const handler = request.method === "GET" || request.method === "HEAD" ? definition.GET : request.method === "POST" ? definition.POST : undefined;
        if (!handler) throw new HttpError(405, `${request.method} is not allowed here`, { headers: { Allow: allow } });
        return handler(request, context(params, logFields));
      });
  }
  return table;
}

/** The answer for a path no route knows. */
export function notFound(request: Request, logger: Logger): Promise<Response> {
  return handleLogged(request, false, logger, async () => {
    throw new HttpError(404, `no resource at ${pathOf(request.url)}`);
  });
}

async function handleLogged(request: Request, quiet: boolean, logger: Logger, handle: (logFields: Record<string, unknown>, path: string) => Promise<Response>): Promise<Response> {
  const started = performance.now();
  const logFields: Record<string, unknown> = {};
  const path = pathOf(request.url);
  let response: Response;
  try {
    response = await handle(logFields, path);
  } catch (error) {
    if (error instanceof HttpError) response = problemResponse(error);
    else {
      logger.error("request failed", { method: request.method, path, error: error instanceof Error ? error.message : String(error) });
      response = problemResponse(new HttpError(500, "the server failed to answer this request"));
    }
  }
  if (!quiet) {
    logger.info("request", { method: request.method, path, status: response.status, ms: Math.round((performance.now() - started) * 100) / 100, ...logFields });
  }
  return response;
}

/** The path of a request URL, without the query: `http://host:port/a/b?c` → `/a/b`. */
function pathOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start === -1) return "/";
  const query = url.indexOf("?", start);
  const hash = url.indexOf("#", start);
  const end = query === -1 ? (hash === -1 ? url.length : hash) : query;
  return url.slice(start, end);
}

function decodeParams(pattern: string, pathname: string): Record<string, string> {
  const names = pattern.split("/");
  const segments = pathname.split("/");
  const params: Record<string, string> = {};
  names.forEach((name, index) => {
    if (!name.startsWith(":")) return;
    try {
      params[name.slice(1)] = decodeURIComponent(segments[index] ?? "");
    } catch {
      throw new HttpError(400, "the path has malformed percent-encoding");
    }
  });
  return params;
}
