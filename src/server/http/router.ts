import type { Logger } from "../logging/logger.ts";
import { UNMATCHED_ROUTE, type RouteMetrics, type ServerMetrics } from "../metrics/server-metrics.ts";
import { preflightResponse } from "./cors.ts";
import { HttpError, problemResponse } from "./http-error.ts";
import { requestIdOf, type RequestIdentity } from "./request-id.ts";
import type { RouteContext, RouteHandler } from "./route-context.ts";
import { incomingTrace } from "../../tracing/incoming-trace.ts";
import type { Tracer } from "../../tracing/tracer.ts";
import { requestSpanAttributes } from "./request-span-attributes.ts";

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

export type ContextFactory = (
  params: Record<string, string>,
  logFields: Record<string, unknown>,
  identity: RequestIdentity,
) => RouteContext;

/** What every request passes through besides its handler: the log, the metrics, the drain. */
export interface RequestServices {
  readonly logger: Logger;
  readonly metrics: ServerMetrics;
  /** While draining, answers carry `Connection: close` so keep-alive clients move elsewhere. */
  readonly isDraining: () => boolean;
  /** With tracing on (OTEL_EXPORTER_OTLP_*): a server span per request. */
  readonly tracer?: Tracer;
}

type BunRouteHandler = (request: Request) => Promise<Response>;

export function buildRouteTable(
  definitions: Readonly<Record<string, RouteDefinition>>,
  context: ContextFactory,
  services: RequestServices,
): Record<string, BunRouteHandler> {
  const table: Record<string, BunRouteHandler> = {};
  for (const [pattern, definition] of Object.entries(definitions)) {
    const allow = [
      ...(definition.GET ? ["GET", "HEAD"] : []),
      ...(definition.POST ? ["POST"] : []),
      ...(definition.preflight ? ["OPTIONS"] : []),
    ].join(", ");
    const parameters = parameterPositions(pattern);
    const quiet = definition.quiet ?? false;
    const metrics = services.metrics.route(pattern);
    const spanNames = spanNamesOf(pattern);
    const dispatch: Dispatch = (request, path, logFields, identity) => {
      const params = decodeParams(parameters, path);
      if (request.method === "OPTIONS" && definition.preflight) return preflightResponse();
      const handler =
        request.method === "GET" || request.method === "HEAD"
          ? definition.GET
          : request.method === "POST"
            ? definition.POST
            : undefined;
      if (!handler) throw new HttpError(405, `${request.method} is not allowed here`, { headers: { Allow: allow } });
      return handler(request, context(params, logFields, identity));
    };
    // A path without parameters is the pattern itself, so the URL need not be read.
    table[pattern] = (request) =>
      handleLogged(
        request,
        parameters.length === 0 ? pattern : pathOf(request.url),
        pattern,
        spanNames,
        quiet,
        metrics,
        services,
        dispatch,
      );
  }
  return table;
}

/** The names of a route's server spans by method, made once rather than for every request. */
function spanNamesOf(pattern: string): Readonly<Record<string, string>> {
  return Object.fromEntries(["GET", "HEAD", "POST", "OPTIONS"].map((method) => [method, `${method} ${pattern}`]));
}

/** The answer for a path no route knows; counted as route "unmatched", never by its raw path. */
export function notFoundHandler(services: RequestServices): (request: Request) => Promise<Response> {
  const metrics = services.metrics.route(UNMATCHED_ROUTE);
  const dispatch: Dispatch = (_request, path) => {
    throw new HttpError(404, `no resource at ${path}`);
  };
  return (request) =>
    handleLogged(request, pathOf(request.url), undefined, NO_SPAN_NAMES, false, metrics, services, dispatch);
}

type Dispatch = (
  request: Request,
  path: string,
  logFields: Record<string, unknown>,
  identity: RequestIdentity,
) => Response | Promise<Response>;

/**
 * Every request: its id (echoed or made), its span (tracing on) or the trace of its `traceparent`,
 * the handler, the id and (while draining) `Connection: close` on the answer, the metrics, the log
 * line unless the route is quiet, and the span's end. `route` is the pattern (none for a path no
 * route knows).
 */
async function handleLogged(
  request: Request,
  path: string,
  route: string | undefined,
  spanNames: Readonly<Record<string, string>>,
  quiet: boolean,
  metrics: RouteMetrics,
  services: RequestServices,
  dispatch: Dispatch,
): Promise<Response> {
  const started = performance.now();
  const headers = request.headers;
  const requestId = requestIdOf(headers.get("x-request-id"));
  const traceparent = headers.get("traceparent");
  // `tracestate` counts only beside a `traceparent`: without one it is not read.
  const span = services.tracer?.startServerSpan(
    spanNames[request.method] ?? (route === undefined ? request.method : `${request.method} ${route}`),
    traceparent,
    traceparent === null ? null : headers.get("tracestate"),
    started,
  );
  const identity: RequestIdentity =
    span === undefined ? { id: requestId, inAnswer: false } : { id: requestId, inAnswer: false, span };
  // The log line's members in their order; handlers add theirs (ruleset, decision, ...) after these.
  // One literal or the other, so that the line's object is never reshaped member by member.
  const logFields: Record<string, unknown> =
    span === undefined
      ? { method: request.method, path, status: 0, ms: 0, requestId }
      : { method: request.method, path, status: 0, ms: 0, requestId, traceId: span.traceId, spanId: span.spanId };
  if (span === undefined && traceparent !== null) {
    const traceId = incomingTrace(traceparent)?.traceId;
    if (traceId !== undefined) logFields.traceId = traceId;
  }
  let response: Response;
  try {
    response = await dispatch(request, path, logFields, identity);
  } catch (error) {
    // The answer is the problem built here, whatever headers the handler had made before it threw.
    identity.inAnswer = false;
    if (error instanceof HttpError) response = problemResponse(error);
    else {
      services.logger.error("request failed", {
        method: request.method,
        path,
        requestId,
        error: error instanceof Error ? error.message : String(error),
      });
      response = problemResponse(new HttpError(500, "the server failed to answer this request"));
    }
  }
  if (!identity.inAnswer) response.headers.set("X-Request-Id", requestId);
  // Read after the handler: an answer that finishes during the drain closes its connection too.
  if (services.isDraining()) response.headers.set("Connection", "close");
  const ended = performance.now();
  const ms = ended - started;
  metrics.record(request.method, response.status, ms / 1000);
  if (!quiet) {
    logFields.status = response.status;
    logFields.ms = Math.round(ms * 100) / 100;
    services.logger.info("request", logFields);
  }
  // An unsampled span is never exported: its attributes are not made.
  if (span?.sampled)
    span.end(
      requestSpanAttributes(request.method, route, response.status, logFields),
      response.status >= 500 ? `answered ${response.status}` : undefined,
      // The span lasts what the log line's `ms` says.
      ended,
    );
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

/** Where a pattern's `:name` segments are: `/rulesets/:id/manifest` → [[2, "id"]]. */
function parameterPositions(pattern: string): [number, string][] {
  const positions: [number, string][] = [];
  pattern.split("/").forEach((segment, index) => {
    if (segment.startsWith(":")) positions.push([index, segment.slice(1)]);
  });
  return positions;
}

/** A path no route knows: its spans are named by the method alone. */
const NO_SPAN_NAMES: Readonly<Record<string, string>> = Object.freeze({});

const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({});

function decodeParams(positions: readonly [number, string][], pathname: string): Record<string, string> {
  if (positions.length === 0) return NO_PARAMS;
  const segments = pathname.split("/");
  const params: Record<string, string> = {};
  for (const [index, name] of positions) {
    try {
      params[name] = decodeURIComponent(segments[index] ?? "");
    } catch {
      throw new HttpError(400, "the path has malformed percent-encoding");
    }
  }
  return params;
}
