import type { OpenSpan } from "../../tracing/tracer.ts";
/**
 * `X-Request-Id` (DECISIONS.md, Extensions): a client's id of 1 to 128 visible ASCII characters
 * is kept; otherwise, or without one, the server makes one. Made ids are a random prefix per
 * process and a counter: unique across replicas in practice, and cheaper than a UUID per request.
 */
const MAX_LENGTH = 128;
const PROCESS_PREFIX = Array.from(crypto.getRandomValues(new Uint8Array(6)), (byte) =>
  byte.toString(16).padStart(2, "0"),
).join("");
let counter = 0;

/** The request id to answer and log: the given one when it is valid, a new one otherwise. */
export function requestIdOf(given: string | null): string {
  if (given !== null && isValidRequestId(given)) return given;
  return `${PROCESS_PREFIX}-${(++counter).toString(36)}`;
}

/** 1 to 128 characters, each visible ASCII (0x21 to 0x7E). */
function isValidRequestId(value: string): boolean {
  if (value.length === 0 || value.length > MAX_LENGTH) return false;
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    if (code < 0x21 || code > 0x7e) return false;
  }
  return true;
}

/**
 * A request's id as the router holds it while the handler runs. A handler may put the id in the
 * headers it builds its answer with (`headersWithRequestId`); the router then leaves that answer's
 * headers alone, since setting a header on a built Response costs more than building it with one.
 */
export interface RequestIdentity {
  readonly id: string;
  /** Whether the handler's answer already carries `X-Request-Id`. */
  inAnswer: boolean;
  /** The request's span, with tracing on: a handler opens children of it where they tell something. */
  readonly span?: OpenSpan;
}

/** `headers` and `X-Request-Id`, for the answer a handler returns (not for one it throws). */
export function headersWithRequestId(
  identity: RequestIdentity,
  headers: Readonly<Record<string, string>>,
): Record<string, string> {
  identity.inAnswer = true;
  return { ...headers, "X-Request-Id": identity.id };
}
