import type { RulesAsText } from "../snapshot/rules-snapshot.ts";

/** The share of a load's rulesets that, compiled afresh, makes its garbage worth a full collection. */
const COMPILED_SHARE_TO_COLLECT = 0.1;
/** Bundles smaller than this together leave too little garbage to wait for a collection (the example's are 0.1 MiB). */
const COMPILED_BYTES_TO_COLLECT = 1024 * 1024;

/**
 * A full garbage collection, now: after a load of the rules, whose garbage is many times what it
 * keeps, so that the memory is free before what is kept is made (see rules-snapshot.ts).
 */
export function collectGarbage(): void {
  Bun.gc(true);
}

/** A heap smaller than this is left to the collector's own pace once a load is served. */
const HEAP_BYTES_TO_COLLECT = 64 * 1024 * 1024;

/**
 * Whether the heap is worth a full collection once a load is served, to give back what the load
 * and the snapshot before it held: not for a small heap, where a collection cost a tenth of the
 * executable's start-up on the example before its `listening` line was out.
 */
export function worthCollectingAfterLoad(heapBytes: number = process.memoryUsage().heapUsed): boolean {
  return heapBytes >= HEAP_BYTES_TO_COLLECT;
}

/**
 * Whether a load's garbage is worth a full collection before its snapshot is made: where most of
 * it compiled, what it keeps would lie spread among that garbage. A reload that compiled a few
 * files need not wait for a collection of a large heap (a quarter of a second at a thousand
 * rulesets, half of reloading one changed file), nor a start-up with a few small rulesets (a
 * collection is a tenth of the executable's start-up on the example): the one after the swap will do.
 */
export function worthCollecting(text: RulesAsText): boolean {
  let compiledBytes = 0;
  for (const ruleset of text.rulesets) if ("bundleText" in ruleset) compiledBytes += ruleset.bundleText.length;
  return text.compiled > text.rulesets.length * COMPILED_SHARE_TO_COLLECT && compiledBytes >= COMPILED_BYTES_TO_COLLECT;
}
