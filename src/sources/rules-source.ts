import type { SourceDescription } from "./source-description.ts";

/** Rules to load: a directory the one loader reads, and what to do once the load is decided. */
export interface PulledRules {
  readonly changed: true;
  readonly directory: string;
  readonly description: SourceDescription;
  /** The load succeeded and its rules are served: the copy becomes the last good one. */
  accept(): void;
  /** The load was refused: the copy is dropped, the last good one stays. */
  discard(): void;
  /** Set when the pull failed at start-up and the last good copy on disk is loaded instead: why. */
  readonly pullFailure?: string;
}

/** Nothing new at the source: the rules served stay, nothing is loaded. */
export interface UnchangedRules {
  readonly changed: false;
  readonly description: SourceDescription;
}

/**
 * Where a server's rules come from (RULES_DIR or RULES_SOURCE): a directory read in place, an OCI
 * artifact, or another rule-server. Every kind ends as a directory the one loader reads, so that
 * what is checked and served does not depend on where it came from.
 */
export interface RulesSource {
  readonly kind: SourceDescription["kind"];
  /** The directory or reference, as configured; never a credential. */
  readonly ref: string;
  /**
   * Gets the rules; rejects with SourceError when they cannot be had. `first` at start-up, when
   * nothing is served yet: a source with a last good copy on disk falls back to it.
   */
  pull(first: boolean): Promise<PulledRules | UnchangedRules>;
  /**
   * At start-up, when the release pulled does not load (a signature that does not hold, a bundle
   * refused): the last good copy on disk, if there is one other than it, with `reason` as its
   * `pullFailure`; undefined otherwise.
   */
  lastGood(reason: string): PulledRules | undefined;
  /** Lets go of what the source holds (a temporary directory of pulled copies). */
  close(): void;
}
