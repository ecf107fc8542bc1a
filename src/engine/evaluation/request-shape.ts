import { isJsonObject } from "../value/json-access.ts";
import type { JsonObject, JsonValue } from "../value/json-value.ts";
import { NUMBER_TOO_LARGE } from "../value/parse-json.ts";
import { isDeeperThan, MAX_VALUE_DEPTH } from "../value/value-depth.ts";

/**
 * The shape of an evaluation request (specification section 8), checked before anything is
 * evaluated so that a malformed request is refused, never half-evaluated. The message says which
 * member is wrong; the HTTP server uses it as the title of its 400 answer.
 */
export class RequestShapeError extends Error {
  readonly code = "BAD_REQUEST" as const;
  override readonly name = "RequestShapeError";
}

export const VIEW_KEYS = ["page", "screen", "section", "component"] as const;

/** A place in the user interface: the request's view, or where a finding's rule applies. */
export type Place = Partial<Record<(typeof VIEW_KEYS)[number], string>>;

/**
 * What is wrong with a request before its shape is checked, worded once so that every host (the
 * HTTP server's 400 titles, the browser module's errors) says the same.
 */
export const REQUEST_REFUSALS = {
  notAnObject: "the body must be a JSON object",
  numberTooLarge: NUMBER_TOO_LARGE,
  channel: `'channel' must be "client" or "server"`,
} as const;

/** The problem with a request, or undefined when it has the required shape. */
export function requestShapeProblem(request: JsonValue | undefined): string | undefined {
  if (!isJsonObject(request)) return "a request is an object";
  for (const key of ["entity", "operation"]) if (typeof request[key] !== "string") return `'${key}' must be a string`;
  for (const key of ["data", "original", "actor", "ctx", "view"])
    if (!isObjectOrNull(request[key])) return `'${key}' must be an object`;
  if (!isListOrNull(request.resolutions)) return "'resolutions' must be a list";
  for (const key of ["trigger", "locale"]) if (!isStringOrNull(request[key])) return `'${key}' must be a string`;
  for (const key of ["data", "original", "actor", "ctx"]) {
    if (isDeeperThan(request[key], MAX_VALUE_DEPTH)) return `'${key}' is nested more than ${MAX_VALUE_DEPTH} deep`;
  }
  const actor = request.actor;
  if (isJsonObject(actor)) {
    const roles = actor.roles;
    if (!isListOrNull(roles) || (Array.isArray(roles) && roles.some((role) => typeof role !== "string")))
      return "'actor.roles' must be a list of strings";
  }
  const view = request.view;
  if (isJsonObject(view))
    for (const key of VIEW_KEYS) if (!isStringOrNull(view[key])) return `'view.${key}' must be a string`;
  if (Array.isArray(request.resolutions)) {
    for (const resolution of request.resolutions) {
      if (
        !isJsonObject(resolution) ||
        typeof resolution.rule !== "string" ||
        typeof resolution.type !== "string" ||
        !isStringOrNull(resolution.justification)
      ) {
        return "a resolution is an object with a string 'rule' and 'type' and an optional string 'justification'";
      }
    }
  }
  return undefined;
}

/** Throws RequestShapeError for a request without the required shape. */
export function checkRequestShape(request: JsonValue | undefined): asserts request is JsonObject {
  const problem = requestShapeProblem(request);
  if (problem !== undefined) throw new RequestShapeError(problem);
}

function isObjectOrNull(value: JsonValue | undefined): boolean {
  return value === undefined || value === null || isJsonObject(value);
}
function isListOrNull(value: JsonValue | undefined): boolean {
  return value === undefined || value === null || Array.isArray(value);
}
function isStringOrNull(value: JsonValue | undefined): boolean {
  return value === undefined || value === null || typeof value === "string";
}
