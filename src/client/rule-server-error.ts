import type { Problem } from "./wire-types.ts";

/**
 * The code of each error status the server, or a gateway in front of it, answers with, so that a
 * caller tells a bad request from a missing token or an unknown ruleset without reading numbers.
 * The server's problem documents are all `type: about:blank` (the status says what went wrong),
 * so the status, not the type, decides; the document stays on the error as `problem`.
 */
const STATUS_CODES = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  409: "CONFLICT",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  422: "UNPROCESSABLE",
  429: "TOO_MANY_REQUESTS",
  500: "SERVER_ERROR",
  // Worth a retry later: an evaluation that timed out, records that cannot be written, a gateway without a server behind it.
  502: "UNAVAILABLE",
  503: "UNAVAILABLE",
  504: "UNAVAILABLE",
} as const;

/** The code of an answer with an error status; `SERVER_PROBLEM` for a status without a code of its own. */
export type ServerProblemCode = (typeof STATUS_CODES)[keyof typeof STATUS_CODES] | "SERVER_PROBLEM";

/**
 * Why a call to the rule server failed: the server answered with an error status (a
 * ServerProblemCode: `BAD_REQUEST`, `UNAUTHORIZED`, `NOT_FOUND`, ..., its problem document in
 * `problem` when it sent one); `SERVER_UNREACHABLE`, no answer came (network, DNS, a browser's
 * CORS refusal); `ANSWER_UNREADABLE`, a success whose body is not JSON; `BASE_URL_INVALID`, the
 * client's `baseUrl` is not a URL.
 */
export type RuleServerErrorCode = ServerProblemCode | "SERVER_UNREACHABLE" | "ANSWER_UNREADABLE" | "BASE_URL_INVALID";

/** The code of an error status. */
export function serverProblemCode(status: number): ServerProblemCode {
  return (STATUS_CODES as Record<number, ServerProblemCode>)[status] ?? "SERVER_PROBLEM";
}

export class RuleServerError extends Error {
  override readonly name = "RuleServerError";
  constructor(
    readonly code: RuleServerErrorCode,
    message: string,
    /** The HTTP status, or 0 when no answer came. */
    readonly status: number,
    /** The answer's problem document (RFC 9457): `title`, `status`, `detail`, and `warnings` on a 422. */
    readonly problem?: Problem,
    /** The answer's `X-Request-Id`, the key to the server's log line, when the answer shows it. */
    readonly requestId?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The body as a problem document, or undefined when it is not one. */
export function problemOf(body: unknown): Problem | undefined {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
  const candidate = body as Record<string, unknown>;
  return typeof candidate.title === "string" && typeof candidate.status === "number"
    ? (candidate as unknown as Problem)
    : undefined;
}
