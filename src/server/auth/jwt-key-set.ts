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

const TIMEOUT_MS = 5000;
const REFRESH_MS = 10 * 60_000;
/** An unknown `kid` fetches the set again at most this often: made-up kids must not hammer the identity provider. */
const COOLDOWN_MS = 30_000;

/**
 * The keys bearer JWTs are verified with (RULE_SERVER_JWT_JWKS): a JWKS file, read at start-up (a
 * file that does not load stops it: JwksError) and again on SIGHUP (one that does not load keeps
 * the keys in use), or an https URL, fetched with a timeout, again every refreshMs, and when a
 * token names a key the set does not hold, at most every cooldownMs. A fetch that fails, times out
 * or brings no key set keeps the last good set; before a first good one there are no keys, and
 * tokens are refused.
 */
export class JwtKeySet {
  private keys: JWTVerifyGetKey | undefined;
  /** Counts the sets taken: what a token was verified with is known to be current while it holds. */
  generation = 0;
  private lastFetch = Number.NEGATIVE_INFINITY;
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

  /** The keys of the last good set; undefined before one was read. */
  get getKey(): JWTVerifyGetKey | undefined {
    if (this.url !== undefined && this.now() - this.lastFetch >= (this.fetching_.refreshMs ?? REFRESH_MS))
      void this.refresh();
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

  private refresh(): Promise<string | undefined> {
    this.fetching ??= this.fetchSet().finally(() => {
      this.fetching = undefined;
    });
    return this.fetching;
  }

  private async fetchSet(): Promise<string | undefined> {
    this.lastFetch = this.now();
    const fetchSet = this.fetching_.fetch ?? ((url, init) => fetch(url, init));
    try {
      const response = await fetchSet(this.url!, {
        signal: AbortSignal.timeout(this.fetching_.timeoutMs ?? TIMEOUT_MS),
      });
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
    try {
      this.keys = createLocalJWKSet(set as JSONWebKeySet);
      this.generation++;
    } catch {
      return `${where} is not a JWKS that can be read`;
    }
    return undefined;
  }

  private now(): number {
    return (this.fetching_.now ?? Date.now)();
  }
}
