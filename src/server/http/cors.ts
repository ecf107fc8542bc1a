/** CORS for the public endpoints that browsers fetch across origins (DECISIONS.md, Endpoints). */
export const PUBLIC_CORS_HEADERS: Readonly<Record<string, string>> = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": "ETag",
};

/** The answer to a preflight on a public endpoint: GET and HEAD, with If-None-Match. */
export function preflightResponse(): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...PUBLIC_CORS_HEADERS,
      "Access-Control-Allow-Methods": "GET, HEAD, OPTIONS",
      "Access-Control-Allow-Headers": "If-None-Match",
      "Access-Control-Max-Age": "86400",
    },
  });
}
