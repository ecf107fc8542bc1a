import type { RefreshSetting } from "../config/server-options.ts";

/** What a `listening` line says, from a lone server, a supervisor or a serving process. */
export function listeningFields(listening: {
  readonly hostname: string | undefined;
  readonly port: number;
  readonly open: boolean;
  readonly rulesets: number;
  readonly workers: number;
  readonly refresh: RefreshSetting | undefined;
  /** Served over HTTPS with these files' contents. */
  readonly tls?: { readonly clientCa?: string; readonly notAfter: string } | undefined;
}): Record<string, unknown> {
  return {
    // Without a host Bun reports "localhost" while it listens on every interface: say what it does.
    host: listening.hostname ?? "*",
    port: listening.port,
    auth: listening.open ? "open" : "token",
    rulesets: listening.rulesets,
    workers: listening.workers,
    refresh: listening.refresh?.mode ?? "manual",
    ...(listening.tls === undefined
      ? {}
      : { tls: { clientCertificates: listening.tls.clientCa !== undefined, notAfter: listening.tls.notAfter } }),
  };
}
