import type { Logger } from "../logging/logger.ts";
import { kernelMovesQueuedConnections } from "./queued-connections.ts";
import { readTlsMaterial, type TlsFiles, TlsFilesError, type TlsMaterial } from "./tls-material.ts";

/**
 * The TLS files of the process that loads the rules: read at start-up (a file that does not load
 * stops the start) and again on SIGHUP, when a file that does not load keeps the certificates being
 * served, with a `warn` line saying why.
 */
export class TlsFilesReader {
  private current: TlsMaterial;

  constructor(
    private readonly files: TlsFiles,
    private readonly logger: Logger,
  ) {
    this.current = readTlsMaterial(files);
  }

  get material(): TlsMaterial {
    return this.current;
  }

  /**
   * The files read again: their material when it differs from what is served (said in an `info`
   * line with the new certificate's expiry, and whether queued connections survive the rotation),
   * else undefined.
   */
  reread(): TlsMaterial | undefined {
    let next: TlsMaterial;
    try {
      next = readTlsMaterial(this.files);
    } catch (error) {
      const problems = error instanceof TlsFilesError ? error.problems : [String(error)];
      this.logger.warn("the TLS files did not load; the certificates being served stay", { problems });
      return undefined;
    }
    if (next.fingerprint === this.current.fingerprint) return undefined;
    this.current = next;
    const moved = kernelMovesQueuedConnections();
    this.logger.info("TLS certificates reloaded", {
      notAfter: next.notAfter,
      ...(moved === undefined ? {} : { queuedConnectionsMoved: moved }),
    });
    return next;
  }
}
