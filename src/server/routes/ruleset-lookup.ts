import { HttpError } from "../http/http-error.ts";
import type { RulesSnapshot } from "../snapshot/rules-snapshot.ts";
import type { ServedRuleset } from "../snapshot/served-ruleset.ts";

/** The ruleset a path or a request names; 404 for an unknown id or version. */
export function findRuleset(snapshot: RulesSnapshot, id: string, version?: string): ServedRuleset {
  const served = snapshot.rulesets.get(id);
  if (!served) throw new HttpError(404, `no ruleset ${id} is served`);
  if (version !== undefined && served.entry.version !== version) throw new HttpError(404, `ruleset ${id} is served at version ${served.entry.version}, not ${version}`);
  return served;
}
