import type { SourceDescription } from "../../sources/source-description.ts";
import { LoadedRuleset } from "../../engine/bundle/loaded-ruleset.ts";
import type { CustomOperators } from "../../engine/expression/custom-operators.ts";
import type { JsonObject } from "../../engine/value/json-value.ts";
import { CachePolicy, type CacheRule } from "../../workspace/cache-policy.ts";
import { RulesSnapshot } from "../snapshot/rules-snapshot.ts";
import { type SignedBundle, serveRuleset, type ServedRuleset, type SourceListing } from "../snapshot/served-ruleset.ts";

/**
 * The rules the supervisor loaded, as plain data sent to every serving process: each process
 * builds its snapshot from the very bundles the supervisor checked, rather than reading the files
 * again, so no process can serve a version the supervisor did not accept (files may change between
 * two reads), and every process has the same `loadedAt`.
 */
export interface RulesImage {
  readonly generation: number;
  readonly loadedAt: string;
  readonly rulesets: readonly ImagedRuleset[];
  readonly cachePolicy: { readonly fallback: CacheRule; readonly byRuleset: readonly (readonly [string, CacheRule])[] };
  readonly missingOperators: readonly { readonly ruleset: string; readonly operators: string[] }[];
  readonly source?: SourceDescription;
}

interface ImagedRuleset {
  readonly bundle: JsonObject;
  /** What the list entry takes from a source document (absent for a ruleset read from a bundle file). */
  readonly listing?: SourceListing;
  /** A bundle loaded with its signature: the file's text and the JWS, served as the supervisor serves them. */
  readonly signed?: SignedBundle;
}

export function imageOf(snapshot: RulesSnapshot): RulesImage {
  const rulesets: ImagedRuleset[] = [];
  for (const [id, served] of snapshot.rulesets) {
    const bundle = snapshot.bundles.get(id);
    if (bundle === undefined) throw new Error(`the snapshot has no bundle for ruleset ${id}`);
    rulesets.push({
      bundle,
      ...(served.listing === undefined ? {} : { listing: served.listing }),
      ...(served.signed === undefined ? {} : { signed: served.signed }),
    });
  }
  return {
    generation: snapshot.generation,
    loadedAt: snapshot.loadedAt,
    rulesets,
    cachePolicy: snapshot.cachePolicy.rules,
    missingOperators: snapshot.missingOperators,
    ...(snapshot.source === undefined ? {} : { source: snapshot.source }),
  };
}

/** The snapshot a serving process serves: built as the supervisor's was, from the same bundles. */
export function snapshotOf(image: RulesImage, operators: CustomOperators): RulesSnapshot {
  const served = new Map<string, ServedRuleset>();
  const bundles = new Map<string, JsonObject>();
  for (const { bundle, listing, signed } of image.rulesets) {
    const ruleset = LoadedRuleset.fromBundle(bundle, operators);
    served.set(ruleset.id, serveRuleset(bundle, ruleset, listing, signed));
    bundles.set(ruleset.id, bundle);
  }
  const cachePolicy = new CachePolicy(image.cachePolicy.fallback, new Map(image.cachePolicy.byRuleset));
  return new RulesSnapshot(
    served,
    cachePolicy,
    image.loadedAt,
    image.missingOperators.map((missing) => ({ ruleset: missing.ruleset, operators: [...missing.operators] })),
    bundles,
    image.generation,
    image.source,
  );
}
