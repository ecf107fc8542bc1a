import { HttpError } from "../http/http-error.ts";
import type { RulesSnapshot } from "../snapshot/rules-snapshot.ts";
import type { ServedRuleset } from "../snapshot/served-ruleset.ts";

/** The ruleset a path names; 404 for an unknown id. */
export function findRuleset(snapshot: RulesSnapshot, id: string, version?: string): ServedRuleset {
  return requireVersion(snapshot.rulesets.get(id), id, version, (served) => served.entry.version);
}

/** The ruleset found for an id, at the version asked for (any when none is); 404 otherwise. */
export function requireVersion<T>(
  found: T | undefined,
  id: string,
  version: string | undefined,
  versionOf: (found: T) => string,
): T {
  if (found === undefined) throw new HttpError(404, `no ruleset ${id} is served`);
  if (version !== undefined && versionOf(found) !== version)
    throw new HttpError(404, `ruleset ${id} is served at version ${versionOf(found)}, not ${version}`);
  return found;
}
