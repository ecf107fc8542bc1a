import { hasCredentials } from "../config/checked-options.ts";
import type { ServerOptions } from "../config/server-options.ts";
import type { Logger } from "../logging/logger.ts";
import { Authenticator, type RefusalCounter } from "./authenticator.ts";
import { CredentialsReader } from "./credentials-reader.ts";

/**
 * How a serving process authenticates requests, from the server's options: the Authenticator its
 * routes ask, fed with the named credentials (RULE_SERVER_CREDENTIALS and RULE_SERVER_TOKEN) and the
 * JWT key set (RULE_SERVER_JWT_*), read at start-up and again on SIGHUP.
 */
export class RequestAuthentication {
  readonly authenticator: Authenticator;
  private credentials: CredentialsReader | undefined;

  constructor(
    private readonly options: ServerOptions,
    refusals: RefusalCounter,
  ) {
    const token = options.token === "" ? undefined : options.token;
    this.authenticator = new Authenticator(token === undefined && !hasCredentials(options), refusals);
  }

  /** Reads what requests are checked against; throws CredentialsError for credentials that cannot be used. */
  start(logger: Logger): void {
    if (this.authenticator.open) return;
    this.credentials = new CredentialsReader(this.options.credentialsFile, this.options.token || undefined, logger);
    this.authenticator.useCredentials(this.credentials.credentials);
  }

  /**
   * SIGHUP: the files read again; what does not load keeps what is in use (CredentialsReader warns).
   * Whether the credentials changed.
   */
  reread(): boolean {
    const next = this.credentials?.reread();
    if (next === undefined) return false;
    this.authenticator.useCredentials(next);
    return true;
  }
}
