import { hasCredentials } from "../config/checked-options.ts";
import type { ServerOptions } from "../config/server-options.ts";
import type { Logger } from "../logging/logger.ts";
import { Authenticator, type RefusalCounter } from "./authenticator.ts";
import { CredentialsReader } from "./credentials-reader.ts";
import type { JwtTokenVerifier } from "./jwt-token-verifier.ts";

/**
 * How a serving process authenticates requests, from the server's options: the Authenticator its
 * routes ask, fed with the named credentials (RULE_SERVER_CREDENTIALS and RULE_SERVER_TOKEN) and the
 * JWT key set (RULE_SERVER_JWT_*), read at start-up and again on SIGHUP.
 */
export class RequestAuthentication {
  readonly authenticator: Authenticator;
  /** RULE_SERVER_TOKEN, the credential `default`; an empty one is none. */
  private readonly token: string | undefined;
  private credentials: CredentialsReader | undefined;
  private jwt: JwtTokenVerifier | undefined;
  private logger: Logger | undefined;

  constructor(
    private readonly options: ServerOptions,
    refusals: RefusalCounter,
  ) {
    this.token = options.token === "" ? undefined : options.token;
    this.authenticator = new Authenticator(this.token === undefined && !hasCredentials(options), refusals);
  }

  /**
   * Reads what requests are checked against; throws CredentialsError for credentials that cannot be
   * used, JwksError for a key set file that does not load. A key set at a URL that cannot be fetched
   * yet does not stop the start: JWTs are refused until it can (a `warn` line says why).
   */
  async start(logger: Logger): Promise<void> {
    this.logger = logger;
    if (this.authenticator.open) return;
    this.credentials = new CredentialsReader(this.options.credentialsFile, this.token, logger);
    this.authenticator.useCredentials(this.credentials.credentials);
    const settings = this.options.jwt;
    if (settings === undefined) return;
    // jose only where JWTs are configured: every other start loads none of it.
    const { JwtTokenVerifier } = await import("./jwt-token-verifier.ts");
    this.jwt = new JwtTokenVerifier(settings);
    if (this.jwt.keys.remote) {
      const problem = await this.jwt.keys.reload();
      if (problem !== undefined)
        logger.warn("the JWT key set did not load; JWTs are refused until it does", { problem });
    }
    this.authenticator.useJwt(this.jwt);
  }

  /**
   * SIGHUP: the files read again; what does not load keeps what is in use (CredentialsReader warns).
   * Whether the credentials changed.
   */
  reread(): boolean {
    void this.jwt?.keys.reload().then((problem) => {
      if (problem !== undefined) this.logger?.warn("the JWT key set did not load; the keys in use stay", { problem });
    });
    const next = this.credentials?.reread();
    if (next === undefined) return false;
    this.authenticator.useCredentials(next);
    return true;
  }
}
