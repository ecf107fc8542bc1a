import { HttpError } from "./http-error.ts";

/** What a POST with a JSON body takes: sent back in `Accept-Post` with a 415. */
const ACCEPTED = "application/json";
/** How much of a refused Content-Type the problem repeats. */
const SHOWN_LENGTH = 100;

/**
 * A POST that takes a JSON body refuses a body declared as something else: 415 (RFC 9110, 15.5.16)
 * with `Accept-Post` saying what it takes (registered by W3C LDP; RFC 5789 pairs `Accept-Patch`
 * with a 415 the same way). A request without `Content-Type` is still read as JSON:
 * RFC 9110 (8.3) lets a recipient examine the data when no type is given, and the body must parse
 * as JSON anyway.
 */
export function requireJsonBody(request: Request): void {
  const declared = request.headers.get("content-type");
  if (declared === null || declared === ACCEPTED || isJsonMediaType(declared)) return;
  throw new HttpError(415, `the body must be JSON: send Content-Type: ${ACCEPTED}`, {
    headers: { "Accept-Post": ACCEPTED },
    detail: `Content-Type ${JSON.stringify(declared.slice(0, SHOWN_LENGTH))} is not JSON; application/json and application/*+json are taken`,
  });
}

/** `application/json` or a structured `application/…+json` type, in any case, with any parameters (`charset=utf-8`). */
export function isJsonMediaType(value: string): boolean {
  const end = value.indexOf(";");
  const type = (end === -1 ? value : value.slice(0, end)).trim().toLowerCase();
  if (type === ACCEPTED) return true;
  return type.startsWith("application/") && type.endsWith("+json") && type.length > "application/+json".length;
}
