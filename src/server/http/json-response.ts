import type { CompressibleBody } from "./compressible-body.ts";
import { preferredCoding } from "./content-coding.ts";
import { ifNoneMatchMatches } from "./entity-tag.ts";

const JSON_TYPE = "application/json";

/** A value serialized as a JSON body, with its headers (bodies made once go through encodedResponse). */
export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": JSON_TYPE, ...headers } });
}

/**
 * A cacheable representation: 304 with the same ETag, Cache-Control and Vary (and no body) when
 * the request's If-None-Match matches, otherwise 200 with the body in the coding the client
 * prefers. The ETag is the same whatever the coding (DECISIONS.md, Extensions).
 */
export function conditionalResponse(
  request: Request,
  body: CompressibleBody,
  headers: Record<string, string> & { ETag: string },
  contentType = JSON_TYPE,
): Response {
  if (ifNoneMatchMatches(request.headers.get("if-none-match"), headers.ETag))
    return new Response(null, { status: 304, headers: { ...headers, Vary: "Accept-Encoding" } });
  return encodedResponse(request, body, headers, contentType);
}

/** 200 with a precomputed body, compressed as `Accept-Encoding` allows; `headers` is the request's own object. */
export function encodedResponse(
  request: Request,
  body: CompressibleBody,
  headers: Record<string, string>,
  contentType = JSON_TYPE,
): Response {
  headers.Vary = "Accept-Encoding";
  const coding = body.codingFor(preferredCoding(request.headers.get("accept-encoding")));
  if (coding !== "identity") headers["Content-Encoding"] = coding;
  return new Response(body.bytes(coding), { status: 200, headers: { "Content-Type": contentType, ...headers } });
}
