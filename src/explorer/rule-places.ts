import { PLACE_LEVELS, type ManifestRule, type PlaceLevel } from "./client-manifest.ts";

/** One place of the user interface and the rules that name exactly it, with the places inside it. */
export interface PlaceGroup {
  readonly level: PlaceLevel | "everywhere";
  readonly id: string;
  readonly rules: ManifestRule[];
  readonly inner: PlaceGroup[];
}

/**
 * Groups rules by the place their target names, page then screen then section then component; a
 * level the target skips is skipped in the tree too (a rule of a page's component without a
 * section sits under the page's screen). Rules that name no place apply everywhere and come first.
 * Groups keep the order in which the manifest first names them.
 */
export function groupRulesByPlace(rules: readonly ManifestRule[]): PlaceGroup {
  const everywhere: PlaceGroup = { level: "everywhere", id: "", rules: [], inner: [] };
  for (const rule of rules) {
    let group = everywhere;
    for (const level of PLACE_LEVELS) {
      const id = rule.target[level];
      if (id === undefined) continue;
      let inner = group.inner.find((candidate) => candidate.level === level && candidate.id === id);
      if (inner === undefined) group.inner.push((inner = { level, id, rules: [], inner: [] }));
      group = inner;
    }
    group.rules.push(rule);
  }
  return everywhere;
}
