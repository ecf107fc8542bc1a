import type { Logger } from "../logging/logger.ts";
import { CredentialSet, withDefaultCredential } from "./credential-set.ts";
import { describeCredentialsProblem } from "./credentials-error.ts";
import { readCredentialsFile } from "./credentials-file.ts";

/**
 * The named credentials of the process that checks requests: RULE_SERVER_CREDENTIALS's file with
 * RULE_SERVER_TOKEN as the credential `default`. Read at start-up (credentials that cannot be used
 * stop the start: CredentialsError) and again on SIGHUP, when a file that does not load keeps the
 * credentials in use, with a `warn` line saying what is wrong where, never a token.
 */
export class CredentialsReader {
  private current: CredentialSet;

  constructor(
    private readonly file: string | undefined,
    private readonly token: string | undefined,
    private readonly logger: Logger,
  ) {
    const read = this.read();
    if (!read.ok) throw read.error;
    this.current = read.set;
  }

  get credentials(): CredentialSet {
    return this.current;
  }

  /** The file read again: the new set when it loads (undefined without a file: nothing can have changed). */
  reread(): CredentialSet | undefined {
    if (this.file === undefined) return undefined;
    const read = this.read();
    if (!read.ok) {
      this.logger.warn("the credentials file did not load; the credentials in use stay", {
        code: read.error.code,
        file: this.file,
        problems: read.error.problems.map(describeCredentialsProblem),
      });
      return undefined;
    }
    this.current = read.set;
    this.logger.info("credentials reloaded", { file: this.file, credentials: read.set.names.length });
    return read.set;
  }

  private read() {
    const file = this.file === undefined ? undefined : readCredentialsFile(this.file);
    if (file !== undefined && !file.ok) return file;
    const all = withDefaultCredential(file, this.token);
    return all.ok ? { ok: true as const, set: new CredentialSet(all.credentials) } : all;
  }
}
