import { isDeeperThan, MAX_VALUE_DEPTH } from "../engine/value/value-depth.ts";
import type { JsonObject } from "../engine/value/json-value.ts";
import { isJsonObject as isObject } from "../engine/value/json-access.ts";
import { badRequest } from "./protocol-error.ts";
import { EXPLAIN_REFUSAL, isExplainMode, type ExplainMode } from "../engine/explanation/explanation.ts";

/**
 * Member checks of protocol requests (specification section 13). They run before a ruleset is
 * looked up or a bundle is read, so a malformed request is always BAD_REQUEST. Optional members
 * may be null, which means absent.
 */

export type Channel = "server" | "client";

export function optionalChannel(request: JsonObject): Channel | undefined {
  const channel = request.channel;
  if (channel === undefined || channel === null) return undefined;
  if (channel !== "server" && channel !== "client") badRequest('\'channel\' must be "server" or "client"');
  return channel;
}

/** `explain` of `evaluate` (an extension of ours): `rules` or `full`, or absent. */
export function optionalExplain(request: JsonObject): ExplainMode | undefined {
  const explain = request.explain;
  if (explain === undefined || explain === null) return undefined;
  if (!isExplainMode(explain)) badRequest(EXPLAIN_REFUSAL);
  return explain;
}

export function optionalString(request: JsonObject, member: string): string | undefined {
  const value = request[member];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") badRequest(`'${member}' must be a string`);
  return value;
}

export function optionalObject(request: JsonObject, member: string): JsonObject | undefined {
  const value = request[member];
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) badRequest(`'${member}' must be an object`);
  return value;
}

export function requiredObject(request: JsonObject, member: string): JsonObject {
  return optionalObject(request, member) ?? badRequest(`'${member}' is required`);
}

/** `env` of the `expression` command: an object whose roots are nested at most 64 deep. */
export function optionalEnvironment(request: JsonObject): JsonObject | undefined {
  const env = optionalObject(request, "env");
  if (env) {
    for (const [root, value] of Object.entries(env)) {
      if (isDeeperThan(value, MAX_VALUE_DEPTH)) badRequest(`'env.${root}' is nested more than ${MAX_VALUE_DEPTH} deep`);
    }
  }
  return env;
}

/** The source of `manifest` and `evaluate`: an inline bundle, an inline manifest or a loaded ruleset id. */
export interface Source {
  readonly bundle?: JsonObject;
  readonly manifest?: JsonObject;
  readonly ruleset?: string;
}

export function requiredSource(request: JsonObject): Source {
  const source = {
    bundle: optionalObject(request, "bundle"),
    manifest: optionalObject(request, "manifest"),
    ruleset: optionalString(request, "ruleset"),
  };
  if (!source.bundle && !source.manifest && source.ruleset === undefined)
    badRequest("a 'ruleset', 'bundle' or 'manifest' is required");
  return source;
}
