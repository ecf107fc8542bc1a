/**
 * `X-Request-Id` (DECISIONS.md, Extensions): a client's id of 1 to 128 visible ASCII characters
 * is kept; otherwise, or without one, the server makes one. Made ids are a random prefix per
 * process and a counter: unique across replicas in practice, and cheaper than a UUID per request.
 */
const MAX_LENGTH = 128;
const PROCESS_PREFIX = Array.from(crypto.getRandomValues(new Uint8Array(6)), (byte) => byte.toString(16).padStart(2, "0")).join("");
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
