/**
 * The one HTTP error type: a status, a title that says what is wrong in one sentence, and the
 * headers and problem members the answer carries. Handlers throw it; the router turns it into an
 * `application/problem+json` response (RFC 9457 with `type` about:blank).
 */
export class HttpError extends Error {
  override readonly name = "HttpError";
  constructor(
    readonly status: number,
    readonly title: string,
    readonly options: { headers?: Record<string, string>; detail?: string; members?: Record<string, unknown> } = {},
  ) {
    super(title);
  }
}

export function problemResponse(error: HttpError): Response {
  return new Response(problemBody(error), {
    status: error.status,
    headers: { "Content-Type": "application/problem+json", ...error.options.headers },
  });
}

/** The problem+json text of an error. */
export function problemBody(error: HttpError): string {
  const body: Record<string, unknown> = { type: "about:blank", title: error.title, status: error.status };
  if (error.options.detail !== undefined) body.detail = error.options.detail;
  Object.assign(body, error.options.members);
  return JSON.stringify(body);
}

/** The headers of a problem answer that carries no headers of its own. */
export const PROBLEM_HEADERS = { "Content-Type": "application/problem+json" } as const;
