import { HttpError } from "../http/http-error.ts";
import { PUBLIC_CORS_HEADERS } from "../http/cors.ts";
import { encodedResponse, jsonResponse } from "../http/json-response.ts";
import type { RouteHandler } from "../http/route-context.ts";
import type { RulesetEntry } from "../snapshot/served-ruleset.ts";

/**
 * `GET /rulesets[?scope=...]`: the ruleset entries sorted by id. `scope` is a path of scope ids
 * separated by `/`, each `id` or `level:id`; a ruleset matches when its scope begins with those
 * levels. Rulesets read from bundles have no scope and never match a filter.
 */
const SEGMENT = /^(?:([A-Za-z][A-Za-z0-9_]*):)?([a-z0-9][a-z0-9-]*)$/;

/** The unfiltered list is serialized (and compressed) once per snapshot; a filtered one is made per request and sent as it is. */
export const rulesetList: RouteHandler = (request, { snapshot }) => {
  const scope = new URL(request.url).searchParams.get("scope");
  const headers = { ...PUBLIC_CORS_HEADERS, "Cache-Control": "no-cache" };
  if (scope === null) return encodedResponse(request, snapshot.listBody, headers);
  return jsonResponse({ rulesets: snapshot.entries.filter(matchesScope(parseScope(scope))) }, 200, headers);
};

function parseScope(scope: string): { level?: string; id: string }[] {
  return scope.split("/").map((segment) => {
    const match = SEGMENT.exec(segment);
    if (!match)
      throw new HttpError(400, "'scope' must be a path of scope ids such as acme/payments or organization:payments");
    return match[1] === undefined ? { id: match[2]! } : { level: match[1], id: match[2]! };
  });
}

function matchesScope(wanted: readonly { level?: string; id: string }[]): (entry: RulesetEntry) => boolean {
  return (entry) =>
    entry.scope !== undefined &&
    entry.scope.length >= wanted.length &&
    wanted.every(
      (segment, index) =>
        entry.scope![index]!.id === segment.id &&
        (segment.level === undefined || entry.scope![index]!.level === segment.level),
    );
}
