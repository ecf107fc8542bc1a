import type { CurrentCopy, PulledCopies } from "./pulled-copies.ts";
import type { ReleaseFetcher } from "./release-fetcher.ts";
import type { PulledRules, RulesSource, UnchangedRules } from "./rules-source.ts";
import { SourceError } from "./source-error.ts";

/**
 * A remote source: each pull asks the fetcher for a release other than the one served; a new one
 * is written to the copies' directory and loaded from there. The copy becomes the last good one
 * only once its load succeeded. At start-up, the last good copy's digest is the one asked about
 * (unchanged, it is loaded without a download), and a failed pull falls back to it.
 */
export class PulledRulesSource implements RulesSource {
  readonly kind: "oci" | "server";
  readonly ref: string;
  private served: string | undefined;

  constructor(
    private readonly fetcher: ReleaseFetcher,
    private readonly copies: PulledCopies,
  ) {
    this.kind = fetcher.kind;
    this.ref = fetcher.ref;
  }

  async pull(first: boolean): Promise<PulledRules | UnchangedRules> {
    const usable = first ? this.lastGoodCopy() : undefined;
    const known = first ? usable?.digest : this.served;
    let fetched: Awaited<ReturnType<ReleaseFetcher["fetch"]>>;
    try {
      fetched = await this.fetcher.fetch(known);
    } catch (error) {
      const failure = error instanceof SourceError ? error : new SourceError("SOURCE_PULL_FAILED", messageOf(error));
      if (usable === undefined) throw failure;
      return this.pulled(usable.digest, usable.directory, failure.message);
    }
    if (fetched.unchanged) {
      if (!first) return { changed: false, description: this.description(fetched.digest) };
      if (usable !== undefined) return this.pulled(usable.digest, usable.directory);
      throw new SourceError("SOURCE_PULL_FAILED", `${this.ref} answered "unchanged" to a first pull`);
    }
    return this.pulled(fetched.digest, this.copies.stage(fetched.digest, fetched.files));
  }

  lastGood(reason: string): PulledRules | undefined {
    const cached = this.lastGoodCopy();
    return cached === undefined ? undefined : this.pulled(cached.digest, cached.directory, reason);
  }

  close(): void {
    this.copies.close();
  }

  /** The copy on disk of the release last served from this reference (a cache may hold another's). */
  private lastGoodCopy(): CurrentCopy | undefined {
    const cached = this.copies.current();
    return cached !== undefined && cached.ref === this.ref ? cached : undefined;
  }

  private pulled(digest: string, directory: string, pullFailure?: string): PulledRules {
    return {
      changed: true,
      directory,
      description: this.description(digest),
      accept: () => {
        this.copies.accept(digest, this.ref);
        this.served = digest;
      },
      discard: () => this.copies.discard(digest),
      ...(pullFailure === undefined ? {} : { pullFailure }),
    };
  }

  private description(digest: string) {
    return { kind: this.kind, ref: this.ref, digest } as const;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
