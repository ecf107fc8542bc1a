import { readFileSync } from "node:fs";
import { createLocalJWKSet, type JSONWebKeySet, type JWTVerifyGetKey } from "jose";
import { JwksError } from "./jwks-error.ts";

/** How a key set at a URL is fetched; tests pass their own clock and fetch. */
export interface JwksFetching {
  readonly fetch?: (url: string, init: { signal: AbortSignal }) => Promise<Response>;
  /** Milliseconds, for the refresh and the cool-down. */
  readonly now?: () => number;
  readonly timeoutMs?: number;
  readonly refreshMs?: number;
  readonly cooldownMs?: number;
}

/** The keys of one set taken, and which it is: a token verified with it holds while it is the one in use. */
export interface KeySetInUse {
  readonly getKey: JWTVerifyGetKey;
  readonly generation: number;
}

const TIMEOUT_MS = 5000;
const REFRESH_MS = 10 * 60_000;
/** An unknown `kid` fetches the set again at most this often: made-up kids must not hammer the identity provider. */
const COOLDOWN_MS = 30_000;

/**
 * The keys bearer JWTs are verified with (RULE_SERVER_JWT_JWKS): a JWKS file, read at start-up (a
 * file that does not load stops it: JwksError) and again on SIGHUP (one that does not load keeps
 * the keys in use), or an https URL, fetched with a timeout, again every refreshMs, and when a
 * token names a key the set does not hold, at most every cooldownMs. A fetch that fails, times out
 * or brings no key set keeps the last good set, and is tried again after cooldownMs rather than
 * refreshMs; before a first good one there are no keys, and tokens are refused.
 */
export class JwtKeySet {
  private keys: KeySetInUse | undefined;
  private generation = 0;
  private lastFetch = Number.NEGATIVE_INFINITY;
  /** Whether the last fetch brought a good set: a failed one is tried again sooner. */
  private lastFetchGood = false;
  private fetching: Promise<string | undefined> | undefined;
  private readonly url: string | undefined;

  constructor(
    private readonly source: string,
    private readonly fetching_: JwksFetching = {},
  ) {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(source)) {
      if (!source.toLowerCase().startsWith("https://"))
        throw new JwksError(`RULE_SERVER_JWT_JWKS must be a file or an https:// URL, got ${JSON.stringify(source)}`);
      this.url = source;
      return;
    }
    const problem = this.readFile();
    if (problem !== undefined) throw new JwksError(problem);
  }

  /** Whether the keys come from a URL (fetched) rather than a file. */
  get remote(): boolean {
    return this.url !== undefined;
  }

  /**
   * The keys of the last good set; undefined before one was read. A set at a URL is fetched again
   * in the background when it is due; before a first good set a due fetch is waited for (it is
   * shared, and bounded by the timeout), so that the token that finds the provider back is not refused.
   */
  async current(): Promise<KeySetInUse | undefined> {
    if (this.url !== undefined && this.fetchDue()) {
      const fetched = this.refresh();
      if (this.keys === undefined) await fetched;
    }
    return this.keys;
  }

  /** SIGHUP, or a first fetch: the set read again; why it did not load, or undefined. */
  reload(): Promise<string | undefined> {
    return this.url === undefined ? Promise.resolve(this.readFile()) : this.refresh();
  }

  /** A token named a key the set does not hold: fetch again, unless that was done within the cool-down. Whether it was. */
  async refreshForUnknownKey(): Promise<boolean> {
    if (this.url === undefined || this.now() - this.lastFetch < (this.fetching_.cooldownMs ?? COOLDOWN_MS))
      return false;
    return (await this.refresh()) === undefined;
  }

  private fetchDue(): boolean {
    const interval = this.lastFetchGood
      ? (this.fetching_.refreshMs ?? REFRESH_MS)
      : (this.fetching_.cooldownMs ?? COOLDOWN_MS);
    return this.now() - this.lastFetch >= interval;
  }

  private refresh(): Promise<string | undefined> {
    this.fetching ??= this.fetchSet().finally(() => {
      this.fetching = undefined;
    });
    return this.fetching;
  }

  private async fetchSet(): Promise<string | undefined> {
    this.lastFetch = this.now();
    const problem = await this.fetchAndUse();
    this.lastFetchGood = problem === undefined;
    return problem;
  }

  private async fetchAndUse(): Promise<string | undefined> {
    const fetchSet = this.fetching_.fetch ?? ((url, init) => fetch(url, init));
    try {
      const response = await fetchSet(this.url!, {
        signal: AbortSignal.timeout(this.fetching_.timeoutMs ?? TIMEOUT_MS),
      });
      // fetch follows redirects, to plain http too: keys that came over http are not taken.
      if (response.url !== "" && !response.url.toLowerCase().startsWith("https://"))
        return `the key set at ${this.url} was redirected to a URL that is not https`;
      if (response.status !== 200) return `the key set at ${this.url} answered ${response.status}`;
      return this.use(await response.text(), `the key set at ${this.url}`);
    } catch (error) {
      const reason = error instanceof Error && error.name === "TimeoutError" ? "timed out" : "could not be fetched";
      return `the key set at ${this.url} ${reason}`;
    }
  }

  private readFile(): string | undefined {
    let text: string;
    try {
      text = readFileSync(this.source, "utf8");
    } catch (error) {
      return `RULE_SERVER_JWT_JWKS ${this.source} cannot be read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`;
    }
    return this.use(text, `RULE_SERVER_JWT_JWKS ${this.source}`);
  }

  /** Takes a JWKS document when it is one with at least one key; why not otherwise. */
  private use(text: string, where: string): string | undefined {
    let set: unknown;
    try {
      set = JSON.parse(text);
    } catch {
      return `${where} is not JSON`;
    }
    const keys = (set as JSONWebKeySet | null)?.keys;
    if (!Array.isArray(keys) || keys.length === 0) return `${where} is not a JWKS: it needs a non-empty "keys" list`;
    // A private key published by mistake: jose would refuse it only when a token names it.
    if (keys.some((key) => typeof key === "object" && key !== null && "d" in key))
      return `${where} holds a private key: a JWKS publishes public keys only`;
    try {
      this.keys = { getKey: createLocalJWKSet(set as JSONWebKeySet), generation: ++this.generation };
    } catch {
      return `${where} is not a JWKS that can be read`;
    }
    return undefined;
  }

  private now(): number {
    return (this.fetching_.now ?? Date.now)();
  }
}
