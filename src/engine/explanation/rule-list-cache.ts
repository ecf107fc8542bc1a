import type { RuleExplanation } from "./explanation.ts";

/** Few states recur for one entity and operation; a flood of different ones must not grow the cache. */
const MAX_LISTS = 32;
/** How many recent states that were not kept are remembered: a list is kept when its state comes again. */
const RECENT_STATES = 64;

/**
 * Whole `rules` lists of `rules`-mode explanations, by the per-rule state bytes they were built
 * from (ExplanationRecorder) and which rule wrote which field by the result's effects (the
 * summaries of compute and state rules that fired name those fields). For one entity and operation the
 * list is a function of those alone when no rule failed and no rule run per item or field fired,
 * and most requests repeat one of a few outcomes: the list is then built once and copied for each
 * explanation that has it.
 *
 * Copied, not shared: a holder may sort or filter its list in place. The entries in it are
 * shared and frozen (PlanIndex). Freezing the lists instead cost more than building them anew.
 */
export class RuleListCache {
  private readonly hashes: number[] = [];
  private readonly states: Uint8Array[] = [];
  /** By slot: rule and field of each effect in turn. */
  private readonly written: string[][] = [];
  private readonly lists: (readonly RuleExplanation[])[] = [];
  /** The slot the next list replaces once the cache is full. */
  private next = 0;
  /** Hashes of states seen lately and not kept: a state seen once is not worth copying its list. */
  private readonly recent = new Int32Array(RECENT_STATES);
  private recentAt = 0;

  /** A copy of the list built from `state` (whose stateHash is `hash`) and `effects`, if one was kept. */
  find(state: Uint8Array, hash: number, effects: readonly Written[]): RuleExplanation[] | undefined {
    const states = this.states;
    search: for (let i = 0; i < states.length; i++) {
      if (this.hashes[i] !== hash || !sameWrites(this.written[i]!, effects)) continue;
      const known = states[i]!;
      for (let position = 0; position < state.length; position++)
        if (known[position] !== state[position]) continue search;
      return this.lists[i]!.slice();
    }
    return undefined;
  }

  /** Keeps a copy of `list`, built from `state` and `effects`, if the state came lately already; gives `list` back. */
  keep(state: Uint8Array, hash: number, effects: readonly Written[], list: RuleExplanation[]): RuleExplanation[] {
    if (!this.recent.includes(hash)) {
      this.recent[this.recentAt++ % RECENT_STATES] = hash;
      return list;
    }
    const slot = this.states.length < MAX_LISTS ? this.states.length : this.next++ % MAX_LISTS;
    this.hashes[slot] = hash;
    this.states[slot] = state.slice();
    this.written[slot] = effects.flatMap((effect) => [effect.rule, effect.field]);
    this.lists[slot] = list.slice();
    return list;
  }
}

/** What the cache reads of an effect: the rule that wrote it, and where. */
interface Written {
  readonly rule: string;
  readonly field: string;
}

/** Whether the effects wrote the kept rules and fields, in the same order (compared in place: most lookups find them). */
function sameWrites(kept: readonly string[], effects: readonly Written[]): boolean {
  if (kept.length !== effects.length * 2) return false;
  for (let i = 0; i < effects.length; i++)
    if (kept[i * 2] !== effects[i]!.rule || kept[i * 2 + 1] !== effects[i]!.field) return false;
  return true;
}

/** FNV-1a over the bytes: most lookups that miss are told apart without comparing them all. */
export function stateHash(state: Uint8Array): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < state.length; i++) hash = Math.imul(hash ^ state[i]!, 0x01000193);
  return hash | 0;
}
