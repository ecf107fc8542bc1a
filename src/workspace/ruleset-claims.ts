import { basename } from "node:path";
import type { LoadProblem } from "../engine/bundle/load-problem.ts";

/**
 * Each ruleset id is defined once in a rules directory, by a source or a bundle: the first file
 * that claims an id keeps it, and every later one is a RULESET_DUPLICATE at that later file. The
 * server and `check` claim in the same order (sources, then bundles, each in file order), so they
 * name the same file.
 */
export class RulesetClaims {
  private readonly claimedBy = new Map<string, string>();

  /** `problems` gets each duplicate as it is claimed, in order among the caller's other problems. */
  constructor(readonly problems: LoadProblem[] = []) {}

  /**
   * Whether `file` is the first to define `id`; otherwise a problem at `place` in it, when known.
   * The place is asked for only then: finding it may mean parsing the file again.
   */
  claim(
    id: string,
    file: string,
    place?: () => { readonly line: number; readonly column?: number } | undefined,
  ): boolean {
    const first = this.claimedBy.get(id);
    if (first === undefined) {
      this.claimedBy.set(id, file);
      return true;
    }
    this.problems.push({
      code: "RULESET_DUPLICATE",
      message: `ruleset ${id} is also defined by ${basename(first)}`,
      file,
      ...place?.(),
    });
    return false;
  }

  /** The ids claimed so far. */
  ids(): ReadonlySet<string> {
    return new Set(this.claimedBy.keys());
  }
}
