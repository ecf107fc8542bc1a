import { closestName } from "../../engine/names/closest-name.ts";
import { SERVING_PROCESS_VARIABLE } from "../supervisor/serving-messages.ts";
import { ENVIRONMENT_VARIABLES } from "./read-environment.ts";

/** The server's own prefixes: a variable with one of them that the server does not read is most likely misspelt. */
const OWN_PREFIXES = ["RULE_SERVER_", "RULES_", "RULE_EVALUATION_"] as const;

/** What the server reads, and the variable a supervisor sets for its serving processes (never suggested). */
const KNOWN: readonly string[] = [...ENVIRONMENT_VARIABLES, SERVING_PROCESS_VARIABLE];

export interface UnknownVariable {
  readonly variable: string;
  /** The known variable it is closest to, when close enough to be a likely typo. */
  readonly didYouMean?: string;
}

/**
 * Variables with one of the server's prefixes (in any case: `rule_server_token` is a typo too)
 * that it does not read, sorted by name. They are ignored, so a misspelt setting
 * (`RULE_SERVER_PROCESS=2`) would otherwise pass unnoticed.
 */
export function unknownVariables(env: Readonly<Record<string, string | undefined>>): UnknownVariable[] {
  const unknown: UnknownVariable[] = [];
  for (const variable of Object.keys(env).sort()) {
    if (KNOWN.includes(variable)) continue;
    const upper = variable.toUpperCase();
    if (!OWN_PREFIXES.some((prefix) => upper.startsWith(prefix))) continue;
    const closest = closestName(variable, ENVIRONMENT_VARIABLES);
    unknown.push(closest === undefined ? { variable } : { variable, didYouMean: closest });
  }
  return unknown;
}
