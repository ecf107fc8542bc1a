import type { FetchFunction } from "./client-types.ts";
import { problemOf, RuleServerError, serverProblemCode } from "./rule-server-error.ts";

/** One call to the rule server: what to send, and whether it needs the token. */
export interface ServerCall {
  readonly method: "GET" | "POST";
  /** Relative to the base URL, with its query (`evaluations?explain=rules`). */
  readonly path: string;
  readonly body?: unknown;
  readonly authorized: boolean;
  readonly signal?: AbortSignal | undefined;
}

export interface CallContext {
  readonly base: URL;
  readonly fetch: FetchFunction;
  readonly token: () => Promise<string | undefined>;
}

/** Sends the call and reads the JSON answer; anything but a 2xx with JSON rejects with RuleServerError. */
export async function callServer<T>(context: CallContext, call: ServerCall): Promise<T> {
  const url = new URL(call.path, context.base);
  const label = `${call.method} ${url.pathname}`;
  const headers: Record<string, string> = { Accept: "application/json" };
  if (call.body !== undefined) headers["Content-Type"] = "application/json";
  if (call.authorized) {
    const token = await context.token();
    if (token !== undefined) headers.Authorization = `Bearer ${token}`;
  }
  let response: Response;
  try {
    response = await context.fetch(url, {
      method: call.method,
      headers,
      body: call.body === undefined ? null : JSON.stringify(call.body),
      signal: call.signal ?? null,
    });
  } catch (error) {
    // An abort is the caller's own doing: it keeps the platform's AbortError.
    if (call.signal?.aborted) throw error;
    throw new RuleServerError(
      "SERVER_UNREACHABLE",
      `${label} could not be sent: ${error instanceof Error ? error.message : String(error)}`,
      0,
      undefined,
      undefined,
      { cause: error },
    );
  }
  const requestId = response.headers.get("X-Request-Id") ?? undefined;
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (!response.ok) {
    const problem = problemOf(body);
    throw new RuleServerError(
      serverProblemCode(response.status),
      `${label} answered ${response.status}${problem ? `: ${problem.title}` : ""}`,
      response.status,
      problem,
      requestId,
    );
  }
  if (body === undefined)
    throw new RuleServerError(
      "ANSWER_UNREADABLE",
      `${label} answered ${response.status} with a body that is not JSON`,
      response.status,
      undefined,
      requestId,
    );
  return body as T;
}
