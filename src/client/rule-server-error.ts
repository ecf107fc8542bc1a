import type { Problem } from "./wire-types.ts";

/**
 * Why a call to the rule server failed: `SERVER_PROBLEM`, it answered with an error status (its
 * problem document in `problem` when it sent one); `SERVER_UNREACHABLE`, no answer came (network,
 * DNS, a browser's CORS refusal); `ANSWER_UNREADABLE`, a success whose body is not JSON;
 * `BASE_URL_INVALID`, the client's `baseUrl` is not a URL.
 */
export type RuleServerErrorCode = "SERVER_PROBLEM" | "SERVER_UNREACHABLE" | "ANSWER_UNREADABLE" | "BASE_URL_INVALID";

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
  return typeof candidate.title === "string" && typeof candidate.status === "number" ? (candidate as unknown as Problem) : undefined;
}
