import type { JsonObject, JsonValue } from "../value/json-value.ts";
import type { FindingStatus, Resolution } from "./evaluation-result.ts";
import { mayAccept, type ValidationRule } from "./prepared-rule.ts";

/**
 * The resolutions a request gives (specification 8.1) and what they make of a finding: its
 * resolution type and whether it stays open. Most requests give none, and then nothing is built.
 */
export class RequestResolutions {
  private byKey: Map<string, JsonObject> | undefined;
  private roles: ReadonlySet<string> | undefined;

  constructor(
    private readonly given: JsonValue | undefined,
    private readonly actor: JsonObject,
  ) {}

  /** The status and resolution of a finding of `rule`. */
  outcome(rule: ValidationRule): { status: FindingStatus; resolution: Resolution } {
    const acceptance = rule.acceptance;
    if (rule.severity === "error" && acceptance?.allowed) {
      const given = this.resolution(rule.id, "accept-risk");
      // Roles and justification matter only for a resolution given.
      if (given === undefined) return { status: "open", resolution: "accept-risk" };
      const roleHeld = mayAccept(acceptance, this.actorRoles());
      const justified =
        !acceptance.justificationRequired || (typeof given.justification === "string" && given.justification !== "");
      return { status: roleHeld && justified ? "accepted" : "open", resolution: "accept-risk" };
    }
    if (rule.severity === "warning" && rule.acknowledgementRequired) {
      return {
        status: this.resolution(rule.id, "acknowledge") !== undefined ? "acknowledged" : "open",
        resolution: "acknowledge",
      };
    }
    return { status: "open", resolution: "none" };
  }

  private resolution(rule: string, type: Resolution): JsonObject | undefined {
    const given = this.given;
    if (!Array.isArray(given) || given.length === 0) return undefined;
    if (this.byKey === undefined) {
      this.byKey = new Map();
      for (const resolution of given as JsonObject[])
        this.byKey.set(`${resolution.rule}\u0000${resolution.type}`, resolution);
    }
    return this.byKey.get(`${rule}\u0000${type}`);
  }

  private actorRoles(): ReadonlySet<string> {
    return (this.roles ??= actorRoleSet(this.actor));
  }
}

/** The roles an actor holds: the strings of its `roles` list. */
export function actorRoleSet(actor: JsonValue | undefined): ReadonlySet<string> {
  if (typeof actor !== "object" || actor === null || Array.isArray(actor)) return new Set();
  return new Set(
    Array.isArray(actor.roles) ? actor.roles.filter((role): role is string => typeof role === "string") : [],
  );
}
