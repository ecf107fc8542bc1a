import type { MetricsState } from "../metrics/server-metrics.ts";
import type { LastReload } from "../snapshot/last-reload.ts";
import type { TlsMaterial } from "../tls/tls-material.ts";
import type { RulesImage } from "./rules-image.ts";

/**
 * The messages between the supervisor and its serving processes, over the IPC channel Bun opens
 * between a parent and the child it spawns (JSON). The channel closing tells a serving process
 * that its supervisor is gone.
 */

/** Set by the supervisor in a serving process's environment: the process serves, it does not supervise. */
export const SERVING_PROCESS_VARIABLE = "RULE_SERVER_SERVING_PROCESS";

/** From the supervisor. */
export type ToServing =
  /** Listen on `port` with these rules (and the last reload decided, for /readyz), over HTTPS with `tls`. */
  | {
      readonly kind: "start";
      readonly port: number;
      readonly image: RulesImage;
      readonly lastReload?: LastReload;
      readonly tls?: TlsMaterial;
    }
  /** SIGHUP: read the credentials and the JWT key set again (the supervisor has said what is wrong with them). */
  | { readonly kind: "credentials" }
  /** New certificates for new connections (the supervisor read the TLS files again on SIGHUP). */
  | { readonly kind: "tls"; readonly tls: TlsMaterial }
  /** A reload: serve these rules; answered `loaded`. */
  | { readonly kind: "rules"; readonly image: RulesImage; readonly lastReload: LastReload }
  /** A refused reload: the rules stay, `lastReload` says why. */
  | { readonly kind: "refused"; readonly lastReload: LastReload }
  | { readonly kind: "drain" }
  | { readonly kind: "stop" }
  /** Send your counts (for a scrape another process answers). */
  | { readonly kind: "count"; readonly gather: number }
  /** The whole server's exposition, for the scrape this process asked about (or why there is none). */
  | { readonly kind: "exposition"; readonly scrape: number; readonly text?: string; readonly error?: string };

/** From a serving process. */
export type FromServing =
  /** Ready for `start`. */
  | { readonly kind: "hello" }
  | { readonly kind: "listening"; readonly port: number }
  | { readonly kind: "loaded"; readonly generation: number }
  | { readonly kind: "counts"; readonly gather: number; readonly state: MetricsState }
  /** `/metrics` was asked of this process: its own counts, and a request for the whole server's. */
  | { readonly kind: "scrape"; readonly scrape: number; readonly state: MetricsState };
