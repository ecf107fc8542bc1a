import { resolve } from "node:path";
import type { CustomOperators } from "../../engine/expression/custom-operators.ts";
import { rulesDirectoryHash } from "../../workspace/files/rules-directory-hash.ts";
import { ReloadCache } from "../../workspace/reload-cache.ts";
import type { Logger } from "../logging/logger.ts";
import type { ServerMetrics } from "../metrics/server-metrics.ts";
import { type LastReload, type ReloadTrigger, refusedReload } from "../snapshot/last-reload.ts";
import { loadRulesAsText, type RulesSnapshot, SnapshotError, snapshotFromText } from "../snapshot/rules-snapshot.ts";
import { collectGarbage, worthCollecting, worthCollectingAfterLoad } from "./collect-garbage.ts";
import type { Clock } from "./clock.ts";
import { cronDelay } from "./cron-setting.ts";
import { RefreshTimer } from "./refresh-timer.ts";
import type { RefreshSetting } from "../config/server-options.ts";
import type { PulledRules, RulesSource, UnchangedRules } from "../../sources/rules-source.ts";
import { SourceError } from "../../sources/source-error.ts";
import { readBundleSignatures, type SignatureVerifier } from "../../workspace/files/bundle-signatures.ts";

export type ReloadOutcome =
  | { readonly reloaded: true; readonly rulesets: number }
  | { readonly reloaded: false; readonly error: SnapshotError }
  /** The source has the release already served (RULES_SOURCE): nothing was loaded. */
  | { readonly reloaded: false; readonly unchanged: true };

/** Where reloaded rules go: the HTTP service of a lone server, or the serving processes of a supervisor. */
export interface ReloadTarget {
  /**
   * Puts `next` in service (resolves once it is served), or, without it, reports a refused reload.
   * A rejection refuses the reload: the previous rules stay.
   */
  useRules(lastReload: LastReload, next?: RulesSnapshot): Promise<void>;
}

export interface RulesReloaderParts {
  /** Where the rules come from: RULES_DIR read in place, or a release pulled from RULES_SOURCE. */
  readonly source: RulesSource;
  /** With RULE_SERVER_TRUSTED_KEYS: the keys, read again at every load; only bundles they signed load. */
  readonly trustedKeys?: () => Promise<SignatureVerifier>;
  readonly refresh: RefreshSetting;
  readonly runTests: boolean;
  readonly logger: Logger;
  readonly metrics: ServerMetrics;
  readonly clock: Clock;
  /** When set: checked for entities without a schema on every load. */
  readonly warnsAboutSchemas: boolean;
}

/**
 * The rules of a server that loads them itself (a lone server, or the supervisor of several
 * processes): the first load, every reload (SIGHUP, the schedule, `reload()`), one at a time,
 * each swapped in whole or refused with the previous rules kept, and the refresh schedule.
 */
export class RulesReloader {
  private generation = 0;
  /** The hash of the rules directory at the last load attempted (start-up, SIGHUP or schedule). */
  private lastAttemptedHash: string | undefined;
  private timer: RefreshTimer | undefined;
  /** The latest reload; the next one starts after it (it never rejects). */
  private reloads: Promise<unknown> = Promise.resolve();
  private current: RulesSnapshot | undefined;
  /** What the last loads compiled: a reload compiles only what changed and what extends it. */
  private readonly cache = new ReloadCache();
  private last: LastReload | undefined;

  constructor(
    private readonly parts: RulesReloaderParts,
    private readonly operators: () => CustomOperators,
    private readonly target: ReloadTarget,
  ) {}

  /** The rules being served; undefined before the first load. */
  get rules(): RulesSnapshot | undefined {
    return this.current;
  }

  get lastReload(): LastReload | undefined {
    return this.last;
  }

  /** The first load, at start-up; rejects with SnapshotError when the rules cannot be served. */
  async load(): Promise<RulesSnapshot> {
    this.lastAttemptedHash = this.hashForSchedule();
    const pulled = await this.pull(true);
    // A first pull has nothing to compare with: only a source that broke its word answers "unchanged".
    if (!pulled.changed) throw new SourceError("SOURCE_PULL_FAILED", `${this.parts.source.ref} had no rules to give`);
    if (pulled.pullFailure !== undefined)
      this.parts.logger.warn("the rules source cannot be pulled; starting from the last good copy", {
        source: this.parts.source.ref,
        digest: pulled.description.digest,
        reason: pulled.pullFailure,
      });
    let first: RulesSnapshot;
    let loaded = pulled;
    try {
      first = await this.loadNow(pulled);
    } catch (error) {
      pulled.discard();
      // A release that does not load at start-up is no better than one that cannot be pulled.
      if (!(error instanceof SnapshotError) || pulled.pullFailure !== undefined) throw error;
      const fallback = this.parts.source.lastGood(error.message);
      if (fallback === undefined || fallback.description.digest === pulled.description.digest) throw error;
      this.parts.logger.warn("the release pulled does not load; starting from the last good copy", {
        source: this.parts.source.ref,
        refused: pulled.description.digest,
        digest: fallback.description.digest,
        problems: error.problems,
      });
      first = await this.loadNow(fallback);
      loaded = fallback;
    }
    loaded.accept();
    if (loaded === pulled && pulled.pullFailure === undefined) this.countPull("updated");
    else if (loaded !== pulled) this.countPull("refused");
    this.current = first;
    this.warnAbout(first);
    return first;
  }

  startSchedule(): void {
    const refresh = this.parts.refresh;
    if (refresh.mode === "manual") return;
    const nextDelay =
      refresh.mode === "interval"
        ? () => refresh.intervalMs
        : cronDelay(refresh.expression, refresh.timeZone, this.parts.clock);
    this.timer = new RefreshTimer(nextDelay, () => void this.checkForChanges(refresh.mode), this.parts.clock);
    this.timer.start();
  }

  stopSchedule(): void {
    this.timer?.stop();
  }

  /** The server is done: no more reloads, and the source lets go of what it holds (pulled copies in a temporary directory). */
  close(): void {
    this.stopSchedule();
    this.parts.source.close();
  }

  /**
   * A scheduled check: reload only when the directory's contents differ from the last load
   * attempted; a pulled source is asked for a release other than the one served.
   */
  async checkForChanges(trigger: "interval" | "cron"): Promise<ReloadOutcome | undefined> {
    if (this.parts.source.kind !== "directory") {
      const outcome = await this.reload(trigger);
      return "unchanged" in outcome ? undefined : outcome;
    }
    const hash = rulesDirectoryHash(this.parts.source.ref);
    if (hash === this.lastAttemptedHash) return undefined;
    return this.reload(trigger, hash);
  }

  /** Builds a new snapshot and swaps it in, or keeps serving the previous one and says why. */
  reload(trigger: ReloadTrigger = "api", hash?: string): Promise<ReloadOutcome> {
    // One at a time: a reload takes effect once the workers have loaded its snapshot, and they
    // keep two, the one served and the next, so a second must not send a third before the swap.
    const outcome = this.reloads.then(() => this.reloadNow(trigger, hash));
    this.reloads = outcome;
    return outcome;
  }

  private async reloadNow(trigger: ReloadTrigger, hash: string | undefined): Promise<ReloadOutcome> {
    // Every load counts as an attempt, so a schedule does not load the same files again.
    this.lastAttemptedHash = hash ?? this.hashForSchedule();
    const { logger, metrics, source } = this.parts;
    let pulled: PulledRules | undefined;
    try {
      const pull = await this.pull(false);
      if (!pull.changed) {
        // Said when someone asked (SIGHUP, the API); a schedule asks every interval and says nothing, as for a directory.
        if (trigger !== "interval" && trigger !== "cron")
          logger.info("rules source unchanged", { trigger, source: source.ref, digest: pull.description.digest });
        return { reloaded: false, unchanged: true };
      }
      pulled = pull;
      const next = await this.loadNow(pull);
      const lastReload: LastReload = { at: next.loadedAt, trigger, outcome: "reloaded" };
      await this.target.useRules(lastReload, next);
      pull.accept();
      this.countPull("updated");
      this.current = next;
      this.last = lastReload;
      metrics.countReload(trigger, "reloaded");
      logger.info("rules reloaded", {
        trigger,
        rulesets: next.rulesets.size,
        loadedAt: next.loadedAt,
        ...(pull.description.digest === undefined ? {} : { digest: pull.description.digest }),
      });
      this.warnAbout(next);
      return { reloaded: true, rulesets: next.rulesets.size };
    } catch (caught) {
      pulled?.discard();
      // Whatever went wrong, the previous rules keep being served: a reload never takes the server down.
      const error =
        caught instanceof SnapshotError
          ? caught
          : new SnapshotError([
              caught instanceof SourceError
                ? { code: caught.fault ?? caught.code, message: caught.message }
                : { code: "RELOAD_FAILED", message: caught instanceof Error ? caught.message : String(caught) },
            ]);
      if (pulled !== undefined) this.countPull("refused");
      this.last = refusedReload(
        this.parts.clock.now(),
        trigger,
        error.problems,
        pulled?.directory ?? this.parts.source.ref,
      );
      void this.target.useRules(this.last).catch(() => undefined);
      metrics.countReload(trigger, "refused");
      logger.warn("reload refused, still serving the previous rules", {
        trigger,
        reason: error.message,
        problems: error.problems,
      });
      return { reloaded: false, error };
    }
  }

  /** Asks the source for the rules, counting the pull; rejects with SourceError when it failed. */
  private async pull(first: boolean): Promise<PulledRules | UnchangedRules> {
    let pull: PulledRules | UnchangedRules;
    try {
      pull = await this.parts.source.pull(first);
    } catch (error) {
      this.countPull("failed");
      throw error;
    }
    if (!pull.changed) this.countPull("unchanged");
    else if (pull.pullFailure !== undefined) this.countPull("failed");
    return pull;
  }

  private countPull(outcome: "updated" | "unchanged" | "failed" | "refused"): void {
    const { kind } = this.parts.source;
    if (kind !== "directory") this.parts.metrics.countPull(kind, outcome);
  }

  /**
   * The rules as loadSnapshot loads them, with the load's garbage collected before the snapshot's
   * objects are made (rules-snapshot.ts says why). The collection waits for a turn of the event
   * loop: JavaScriptCore finds roots on the stack conservatively, and a frame of the load's could
   * still hold all of its objects. Once the snapshot is made, the bundles' texts are garbage too.
   */
  private async loadNow(pulled: PulledRules): Promise<RulesSnapshot> {
    const { runTests, clock, trustedKeys } = this.parts;
    const generation = ++this.generation;
    const operators = this.operators();
    const signatures =
      trustedKeys === undefined ? undefined : await readBundleSignatures(pulled.directory, await trustedKeys());
    const text = loadRulesAsText(pulled.directory, operators, runTests, this.cache, signatures);
    if (worthCollecting(text)) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      collectGarbage();
    }
    const snapshot = snapshotFromText(text, operators, generation, clock.now(), this.cache, pulled.description);
    // Once the snapshot is served: the sources' documents are packed, and the texts, the documents
    // and a reload's documents read again are garbage an idle server's collector would keep long.
    setTimeout(() => {
      this.cache.packDocuments();
      if (worthCollectingAfterLoad()) collectGarbage();
    }, 0);
    return snapshot;
  }

  /** The directory's hash, which only a refresh schedule compares; manual mode never reads it. */
  private hashForSchedule(): string | undefined {
    const { refresh, source } = this.parts;
    return refresh.mode === "manual" || source.kind !== "directory" ? undefined : rulesDirectoryHash(source.ref);
  }

  /** Warnings a person should see whenever rules are (re)loaded: nothing to serve, or operators missing. */
  private warnAbout(snapshot: RulesSnapshot): void {
    const { logger, source } = this.parts;
    // A server that is "ready" with nothing to evaluate is usually a RULES_DIR pointing at the wrong folder.
    if (snapshot.rulesets.size === 0)
      logger.warn(
        `no ruleset in the ${source.kind === "directory" ? "rules directory" : "rules source"}; every evaluation will be answered 404`,
        source.kind === "directory" ? { rulesDir: resolve(source.ref) } : { source: source.ref },
      );
    for (const missing of snapshot.missingOperators) {
      logger.warn("custom operators are not registered; rules that need them fail closed", {
        ruleset: missing.ruleset,
        operators: missing.operators,
      });
    }
    if (!this.parts.warnsAboutSchemas) return;
    for (const [id, served] of snapshot.rulesets) {
      const entities = served.ruleset.entitiesWithoutSchema();
      if (entities.length > 0)
        logger.warn("entities without a schema: requests for them are checked for entity and operation only", {
          ruleset: id,
          entities,
        });
    }
  }
}
