import { SIGNATURE_HEADER } from "../../sources/server-release-fetcher.ts";
import { HttpError } from "../http/http-error.ts";
import { PUBLIC_CORS_HEADERS } from "../http/cors.ts";
import { entityTag } from "../http/entity-tag.ts";
import { conditionalResponse } from "../http/json-response.ts";
import type { RouteHandler } from "../http/route-context.ts";
import { findRuleset } from "./ruleset-lookup.ts";
import { whenAllowed } from "../auth/authenticator.ts";

export const PRIVATE_CACHE_CONTROL = "private, no-cache";
const CHECKSUM = /^sha256:[0-9a-f]{64}$/;

/**
 * `GET /rulesets/{id}/manifest[?channel=client|server][&checksum=sha256:...]`. Order of checks:
 * channel value (400), credentials with the `read` scope for the server channel (401, 403), ruleset (404), checksum (409),
 * If-None-Match (304), 200. The client manifest is public and cached by the cache policy.
 */
export const manifest: RouteHandler = (request, { snapshot, auth, params, logFields }) => {
  const query = new URL(request.url).searchParams;
  const channel = query.get("channel") ?? "client";
  if (channel !== "client" && channel !== "server") throw new HttpError(400, `'channel' must be "client" or "server"`);
  const checksum = query.get("checksum");
  if (checksum !== null && !CHECKSUM.test(checksum))
    throw new HttpError(400, "'checksum' must be sha256: followed by 64 lower-case hex digits");
  const allowed = channel === "server" ? auth.require(request, "read", logFields) : undefined;
  return whenAllowed(allowed, () => {
    const served = findRuleset(snapshot, params.id!);
    const current = served.entry.checksum;
    if (checksum !== null && checksum !== current) {
      throw new HttpError(409, `ruleset ${served.entry.id} is now served with another checksum`, {
        headers: { "Cache-Control": "no-store" },
        members: { checksum: current },
      });
    }
    const headers =
      channel === "client"
        ? {
            ETag: entityTag(`${current}-client`),
            "Cache-Control": snapshot.cachePolicy.cacheControl(served.entry.id, checksum !== null),
            ...PUBLIC_CORS_HEADERS,
          }
        : { ETag: entityTag(`${current}-server`), "Cache-Control": PRIVATE_CACHE_CONTROL };
    return conditionalResponse(request, served.manifestBodies[channel], headers);
  });
};

/** `GET /rulesets/{id}/bundle`: protected like the server manifest it holds (`read`); the credentials are checked first. */
export const bundle: RouteHandler = (request, { snapshot, auth, params, logFields }) =>
  whenAllowed(auth.require(request, "read", logFields), () => {
    const served = findRuleset(snapshot, params.id!);
    return conditionalResponse(request, served.bundleBody, {
      ETag: entityTag(`${served.entry.checksum}-bundle`),
      "Cache-Control": PRIVATE_CACHE_CONTROL,
      // Loaded signed, the body is the signed file's bytes: another rule-server pulling it verifies it too.
      ...(served.signed === undefined ? {} : { [SIGNATURE_HEADER]: served.signed.jws }),
    });
  });

/**
 * `GET /rulesets/{id}/rules/{ruleId}`: one resolved rule as the server manifest holds it. A rule
 * that is not in the client manifest is server-only and needs the `read` scope.
 */
export const ruleDetails: RouteHandler = (request, { snapshot, auth, params, logFields }) => {
  const served = findRuleset(snapshot, params.id!);
  const rule = served.rules.get(params.ruleId!);
  if (!rule) throw new HttpError(404, `ruleset ${served.entry.id} has no rule ${params.ruleId}`);
  const tag = entityTag(`${served.entry.checksum}-rule-${params.ruleId}`);
  if (rule.serverOnly)
    return whenAllowed(auth.require(request, "read", logFields), () =>
      conditionalResponse(request, rule.body, { ETag: tag, "Cache-Control": PRIVATE_CACHE_CONTROL }),
    );
  return conditionalResponse(request, rule.body, {
    ETag: tag,
    "Cache-Control": snapshot.cachePolicy.cacheControl(served.entry.id, false),
    ...PUBLIC_CORS_HEADERS,
  });
};
