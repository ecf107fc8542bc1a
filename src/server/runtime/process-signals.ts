import type { Logger } from "../logging/logger.ts";
import type { ReloadTrigger } from "../snapshot/last-reload.ts";

/** A server that loads its own rules: a lone one, or the supervisor of several processes. */
export interface SignalledServer {
  reload(trigger: ReloadTrigger): Promise<unknown>;
  reopenDecisionRecords(): void;
  drain(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The signals of the process that loads the rules (SERVER.md, "Reload" and "Graceful shutdown"):
 * SIGHUP reloads; SIGUSR1 reopens the decision records file (logrotate moved it); SIGTERM and
 * SIGINT drain, and a second one ends the drain at once. Resolves with the exit status once the
 * server has stopped. (A serving process of several has signals of its own: serving-process.ts.)
 */
export function serveUntilSignalled(server: SignalledServer, logger: Logger): Promise<number> {
  process.on("SIGHUP", () => void server.reload("SIGHUP"));
  process.on("SIGUSR1", () => server.reopenDecisionRecords());
  return new Promise<number>((resolve) => {
    let signals = 0;
    const onStop = (signal: string): void => {
      signals++;
      if (signals === 1) {
        logger.info("shutdown requested", { signal });
        void server.drain().then(() => resolve(0));
      } else {
        logger.info("drain ended early", { signal });
        void server.stop().then(() => resolve(0));
      }
    };
    process.on("SIGTERM", () => onStop("SIGTERM"));
    process.on("SIGINT", () => onStop("SIGINT"));
  });
}
