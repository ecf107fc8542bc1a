import type { RuleExplanation } from "./explanation.ts";

/** Few states recur for one entity and operation; a flood of different ones must not grow the cache. */
const MAX_LISTS = 8;

/**
 * Whole `rules` lists of `rules`-mode explanations, by the per-rule state bytes they were built
 * from (ExplanationRecorder). For one entity and operation the list is a function of those bytes
 * alone when no rule failed and no rule run per item or field fired, and most requests repeat one
 * of a few outcomes: the list is then built once and shared, frozen, by every explanation that
 * holds it.
 */
export class RuleListCache {
  private readonly states: Uint8Array[] = [];
  private readonly lists: (readonly RuleExplanation[])[] = [];
  /** The slot the next list replaces once the cache is full. */
  private next = 0;

  find(state: Uint8Array): readonly RuleExplanation[] | undefined {
    const states = this.states;
    search: for (let i = 0; i < states.length; i++) {
      const known = states[i]!;
      for (let position = 0; position < state.length; position++) if (known[position] !== state[position]) continue search;
      return this.lists[i];
    }
    return undefined;
  }

  keep(state: Uint8Array, list: RuleExplanation[]): readonly RuleExplanation[] {
    const slot = this.states.length < MAX_LISTS ? this.states.length : this.next++ % MAX_LISTS;
    this.states[slot] = state.slice();
    return (this.lists[slot] = Object.freeze(list));
  }
}
