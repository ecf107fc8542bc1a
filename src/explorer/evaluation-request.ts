import type { JsonObject, JsonValue } from "../browser/rule-cascade.ts";
import { PLACE_LEVELS, type PlaceLevel, type ResolutionType } from "./client-manifest.ts";

/** The JSON members of the form, each typed in its own editor. */
export const JSON_MEMBERS = ["data", "original", "actor", "ctx"] as const;
export type JsonMember = (typeof JSON_MEMBERS)[number];

/** What the try-it form holds, as typed. */
export interface RequestForm {
  readonly entity: string;
  readonly operation: string;
  readonly locale: string;
  readonly trigger: string;
  readonly view: Readonly<Record<PlaceLevel, string>>;
  readonly json: Readonly<Record<JsonMember, string>>;
  /** The resolutions ticked in the form, in its order; an empty justification is left out. */
  readonly resolutions: readonly ResolutionChoice[];
}

/** One resolution the form gives: a rule, how its finding is resolved, and why (for accept-risk). */
export interface ResolutionChoice {
  readonly rule: string;
  readonly type: ResolutionType;
  readonly justification: string;
}

/** A member the user typed that cannot be sent, and why, in words for them. */
export interface FormProblem {
  readonly code: "JSON_MALFORMED" | "JSON_NOT_OBJECT" | "MEMBER_MISSING";
  readonly member: JsonMember | "entity" | "operation";
  readonly message: string;
}

export type BuiltRequest =
  | { readonly ok: true; readonly request: JsonObject }
  | { readonly ok: false; readonly problems: readonly FormProblem[] };

/** Where a JSON.parse error points, as "line L, column C" when the engine's message gives a position. */
function parseFailure(text: string, error: unknown): string {
  const reason = error instanceof Error ? error.message : String(error);
  const position = /at position (\d+)/.exec(reason);
  if (position === null) return reason;
  const before = text.slice(0, Number(position[1]));
  const line = before.split("\n").length;
  const column = before.length - before.lastIndexOf("\n");
  return `${reason.replace(/\s*\(line \d+ column \d+\)/, "")} (line ${line}, column ${column})`;
}

/** One editor's JSON: an object, or nothing when the editor is empty. */
function parseMember(member: JsonMember, text: string, problems: FormProblem[]): JsonObject | undefined {
  if (text.trim() === "") return undefined;
  let value: JsonValue;
  try {
    value = JSON.parse(text) as JsonValue;
  } catch (error) {
    problems.push({
      code: "JSON_MALFORMED",
      member,
      message: `${member} is not valid JSON: ${parseFailure(text, error)}`,
    });
    return undefined;
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    problems.push({
      code: "JSON_NOT_OBJECT",
      member,
      message: `${member} must be a JSON object ({ ... }), not ${Array.isArray(value) ? "a list" : JSON.stringify(value)}`,
    });
    return undefined;
  }
  return value as JsonObject;
}

/**
 * The evaluation request the form describes, members in the order of POST /evaluations; empty
 * fields are left out. Every problem is reported at once.
 */
export function buildRequest(form: RequestForm): BuiltRequest {
  const problems: FormProblem[] = [];
  if (form.entity.trim() === "")
    problems.push({
      code: "MEMBER_MISSING",
      member: "entity",
      message: "entity is required: the entity the rules are about, such as Transfer",
    });
  if (form.operation.trim() === "")
    problems.push({
      code: "MEMBER_MISSING",
      member: "operation",
      message: "operation is required, such as create or update",
    });
  const request: JsonObject = { entity: form.entity.trim(), operation: form.operation.trim() };
  for (const member of JSON_MEMBERS) {
    const value = parseMember(member, form.json[member], problems);
    if (value !== undefined) request[member] = value;
  }
  if (form.locale !== "") request.locale = form.locale;
  if (form.trigger !== "") request.trigger = form.trigger;
  const view: JsonObject = {};
  for (const level of PLACE_LEVELS) if (form.view[level].trim() !== "") view[level] = form.view[level].trim();
  if (Object.keys(view).length > 0) request.view = view;
  if (form.resolutions.length > 0) {
    request.resolutions = form.resolutions.map(
      ({ rule, type, justification }): JsonObject =>
        justification.trim() === "" ? { rule, type } : { rule, type, justification: justification.trim() },
    );
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, request };
}
