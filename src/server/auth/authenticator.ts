import { HttpError } from "../http/http-error.ts";
import { bearerCredentials } from "./bearer-header.ts";
import type { Caller, Scope } from "./caller.ts";

/** Named credentials (RULE_SERVER_CREDENTIALS and RULE_SERVER_TOKEN): the caller a token belongs to. */
export interface TokenCallers {
  callerOf(token: string): Caller | undefined;
}

/** Bearer JWTs (RULE_SERVER_JWT_JWKS): the caller a verified token names, or why it was refused. */
export interface JwtCallers {
  verify(token: string): Promise<{ ok: true; caller: Caller } | { ok: false; code: string; reason: string }>;
}

/** Where a refusal is counted (ServerMetrics). */
export interface RefusalCounter {
  countRefused(reason: "unauthenticated" | "forbidden", caller: string): void;
}

/**
 * Who may do what (DECISIONS.md, Secure API): a request's bearer token is one of the named
 * credentials or a JWT the configured issuer signed; its caller needs the scope of what it asks.
 * Without credentials and JWTs the server is open: every request is allowed and has no caller.
 *
 * Every failure to authenticate gets the same 401 (a wrong token tells nothing more than a missing
 * one); the request's log line says why (`authError`, never the token). A caller without the scope
 * gets 403. The caller's name goes to the request's log line (`caller`).
 */
export class Authenticator {
  private credentials: TokenCallers | undefined;
  private jwt: JwtCallers | undefined;

  /** `open`: every endpoint is served without credentials (RULE_SERVER_ALLOW_OPEN, nothing else set). */
  constructor(
    readonly open: boolean,
    private readonly refusals: RefusalCounter,
  ) {}

  /** Bearer JWTs are accepted besides the credentials from now on. */
  useJwt(jwt: JwtCallers): void {
    this.jwt = jwt;
  }

  /** Credentials read again (SIGHUP): requests from now on are checked against these. */
  useCredentials(credentials: TokenCallers): void {
    this.credentials = credentials;
  }

  /**
   * The caller of a request, when it presents valid credentials (undefined otherwise, and in open
   * mode). Synchronous for a named credential: only a JWT is verified asynchronously.
   */
  callerOf(request: Request, logFields?: Record<string, unknown>): Caller | undefined | Promise<Caller | undefined> {
    const token = bearerCredentials(request.headers.get("authorization"));
    if (token === undefined) return undefined;
    const named = this.credentials?.callerOf(token);
    if (named !== undefined || this.jwt === undefined || !looksLikeJwt(token)) return named;
    return this.jwt.verify(token).then((outcome) => {
      if (outcome.ok) return outcome.caller;
      if (logFields !== undefined) logFields.authError = outcome.code;
      return undefined;
    });
  }

  /**
   * Throws a 401 HttpError unless the request presents valid credentials, a 403 unless its caller
   * has `scope` (one of them, given several); in open mode allows everything. Puts the caller in the
   * log line's members.
   */
  require(request: Request, scope: Scope | readonly Scope[], logFields: Record<string, unknown>): void | Promise<void> {
    if (this.open) return;
    const caller = this.callerOf(request, logFields);
    if (caller instanceof Promise) return caller.then((verified) => this.allow(verified, scope, logFields));
    this.allow(caller, scope, logFields);
  }

  /** Whether the request's caller has `scope` (always in open mode); refuses nothing. */
  async permits(request: Request, scope: Scope): Promise<boolean> {
    if (this.open) return true;
    return (await this.callerOf(request))?.scopes.has(scope) === true;
  }

  private allow(
    caller: Caller | undefined,
    wanted: Scope | readonly Scope[],
    logFields: Record<string, unknown>,
  ): void {
    if (caller === undefined) {
      this.refusals.countRefused("unauthenticated", "");
      throw new HttpError(401, "a valid bearer token is required", { headers: { "WWW-Authenticate": "Bearer" } });
    }
    logFields.caller = caller.name;
    if (typeof wanted === "string" ? caller.scopes.has(wanted) : wanted.some((one) => caller.scopes.has(one))) return;
    this.refusals.countRefused("forbidden", caller.name);
    const scope = typeof wanted === "string" ? wanted : wanted[0]!;
    throw new HttpError(403, `the caller has no ${scope} scope`, {
      // RFC 6750, section 3.1: the scope the request needs.
      headers: { "WWW-Authenticate": `Bearer error="insufficient_scope", scope="${scope}"` },
      detail: `${JSON.stringify(caller.name)} may not do this: it needs the ${scope} scope (${SCOPE_USES[scope]})`,
      members: { scope },
    });
  }
}

/** Runs `answer` once `require` allowed the request: at once when it decided synchronously (a named credential, open mode). */
export function whenAllowed<T>(allowed: void | Promise<void>, answer: () => T): T | Promise<T> {
  return allowed === undefined ? answer() : allowed.then(answer);
}

/** What each scope opens, for the 403's detail. */
const SCOPE_USES: Readonly<Record<Scope, string>> = {
  evaluate: "evaluations, batches and plans",
  read: "server manifests, bundles and server-only rules",
  operate: "metrics and the detail of /readyz",
};

/** Three base64url parts separated by dots: a JWS in compact form. */
function looksLikeJwt(token: string): boolean {
  const first = token.indexOf(".");
  return first > 0 && token.indexOf(".", first + 1) > first + 1 && token.split(".").length === 3;
}
