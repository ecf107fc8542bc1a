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

export type ReloadOutcome =
  | { readonly reloaded: true; readonly rulesets: number }
  | { readonly reloaded: false; readonly error: SnapshotError };

/** Where reloaded rules go: the HTTP service of a lone server, or the serving processes of a supervisor. */
export interface ReloadTarget {
  /**
   * Puts `next` in service (resolves once it is served), or, without it, reports a refused reload.
   * A rejection refuses the reload: the previous rules stay.
   */
  useRules(lastReload: LastReload, next?: RulesSnapshot): Promise<void>;
}

export interface RulesReloaderParts {
  readonly rulesDir: string;
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
    const first = await this.loadNow();
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

  /** A scheduled check: reload only when the directory's contents differ from the last load attempted. */
  async checkForChanges(trigger: "interval" | "cron"): Promise<ReloadOutcome | undefined> {
    const hash = rulesDirectoryHash(this.parts.rulesDir);
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
    const { logger, metrics } = this.parts;
    try {
      const next = await this.loadNow();
      const lastReload: LastReload = { at: next.loadedAt, trigger, outcome: "reloaded" };
      await this.target.useRules(lastReload, next);
      this.current = next;
      this.last = lastReload;
      metrics.countReload(trigger, "reloaded");
      logger.info("rules reloaded", { trigger, rulesets: next.rulesets.size, loadedAt: next.loadedAt });
      this.warnAbout(next);
      return { reloaded: true, rulesets: next.rulesets.size };
    } catch (caught) {
      // Whatever went wrong, the previous rules keep being served: a reload never takes the server down.
      const error =
        caught instanceof SnapshotError
          ? caught
          : new SnapshotError([
              { code: "RELOAD_FAILED", message: caught instanceof Error ? caught.message : String(caught) },
            ]);
      this.last = refusedReload(this.parts.clock.now(), trigger, error.problems, this.parts.rulesDir);
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

  /**
   * The rules as loadSnapshot loads them, with the load's garbage collected before the snapshot's
   * objects are made (rules-snapshot.ts says why). The collection waits for a turn of the event
   * loop: JavaScriptCore finds roots on the stack conservatively, and a frame of the load's could
   * still hold all of its objects. Once the snapshot is made, the bundles' texts are garbage too.
   */
  private async loadNow(): Promise<RulesSnapshot> {
    const { rulesDir, runTests, clock } = this.parts;
    const generation = ++this.generation;
    const operators = this.operators();
    const text = loadRulesAsText(rulesDir, operators, runTests, this.cache);
    if (worthCollecting(text)) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      collectGarbage();
    }
    const snapshot = snapshotFromText(text, operators, generation, clock.now(), this.cache);
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
    return this.parts.refresh.mode === "manual" ? undefined : rulesDirectoryHash(this.parts.rulesDir);
  }

  /** Warnings a person should see whenever rules are (re)loaded: nothing to serve, or operators missing. */
  private warnAbout(snapshot: RulesSnapshot): void {
    const { logger, rulesDir } = this.parts;
    // A server that is "ready" with nothing to evaluate is usually a RULES_DIR pointing at the wrong folder.
    if (snapshot.rulesets.size === 0)
      logger.warn("no ruleset in the rules directory; every evaluation will be answered 404", {
        rulesDir: resolve(rulesDir),
      });
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
