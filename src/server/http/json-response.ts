import { ifNoneMatchMatches } from "./entity-tag.ts";

/** A JSON body (already serialized, or a value to serialize) with its headers. */
export function jsonResponse(body: Uint8Array | unknown, status = 200, headers: Record<string, string> = {}): Response {
  const payload = body instanceof Uint8Array ? body : JSON.stringify(body);
  return new Response(payload, { status, headers: { "Content-Type": "application/json", ...headers } });
}

/**
 * A cacheable representation: 304 with the same ETag and Cache-Control (and no body) when the
 * request's If-None-Match matches, otherwise 200 with the body.
 */
export function conditionalResponse(request: Request, body: Uint8Array, headers: Record<string, string> & { ETag: string }): Response {
  if (ifNoneMatchMatches(request.headers.get("if-none-match"), headers.ETag)) return new Response(null, { status: 304, headers });
  return jsonResponse(body, 200, headers);
}
