import { parseAuthChallenges, type AuthChallenge } from "./auth-challenge.ts";
import { readBoundedBody } from "./bounded-body.ts";
import { OciError } from "./oci-error.ts";
import type { OciReference } from "./oci-reference.ts";
import type { RegistryCredentials } from "./registry-credentials.ts";
import { registryRefusal } from "./registry-refusal.ts";

export interface RegistrySessionOptions {
  /** Sent to registries that ask (Basic), and to their token servers. */
  readonly credentials?: RegistryCredentials;
  /** Milliseconds one request may take, authentication and reading the answer included; 30 s by default. */
  readonly timeoutMs?: number;
  /** The clock tokens expire by; `Date.now` by default. */
  readonly now?: () => number;
}

export interface RegistryRequest {
  readonly method: "GET" | "HEAD" | "POST" | "PUT" | "PATCH";
  /** A path on the registry (`/v2/…`), or an absolute URL the registry gave (an upload's Location). */
  readonly url: string;
  /** The access the request needs, as a token scope: `repository:<name>:pull` or `repository:<name>:pull,push`. */
  readonly scope: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: Uint8Array;
}

const DEFAULT_TIMEOUT_MS = 30_000;
// The token specification's lifetime when the token server does not say; a token is dropped a little early.
const DEFAULT_TOKEN_SECONDS = 60;
const TOKEN_EXPIRY_MARGIN_MS = 5_000;
const TOKEN_BODY_LIMIT = 1024 * 1024;
const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * Requests to one registry, authenticated the way registries do it: a request goes out as it is;
 * a 401 with a `Bearer` challenge sends us to the token server named in it (with Basic
 * credentials when we have some) and the request is repeated with the token, which is kept for
 * its scope until it expires; a `Basic` challenge makes every later request carry the credentials.
 * Credentials and tokens go only to the registry's own origin: a redirect elsewhere (blob storage)
 * is followed without them.
 */
export class RegistrySession {
  readonly registry: string;
  readonly plainHttp: boolean;
  /** `http(s)://HOST[:PORT]`. */
  readonly origin: string;
  readonly #credentials: RegistryCredentials | undefined;
  readonly #timeoutMs: number;
  readonly #now: () => number;
  readonly #tokens = new Map<string, { readonly token: string; readonly expiresAt: number }>();
  #basic = false;

  constructor(reference: Pick<OciReference, "registry" | "plainHttp">, options: RegistrySessionOptions = {}) {
    this.registry = reference.registry;
    this.plainHttp = reference.plainHttp;
    this.origin = new URL(`${reference.plainHttp ? "http" : "https"}://${reference.registry}`).origin;
    this.#credentials = options.credentials;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#now = options.now ?? Date.now;
  }

  /** Sends the request and hands its answer to `read`, all within the timeout; the answer may be any status. */
  async request<T>(request: RegistryRequest, read: (response: Response) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.#timeoutMs);
    try {
      return await read(await this.#authorized(request, controller.signal));
    } catch (error) {
      const what = `${request.method} ${new URL(request.url, this.origin).pathname}`;
      if (controller.signal.aborted) {
        throw new OciError("REGISTRY_TIMEOUT", `${this.registry}: ${what} took longer than ${this.#timeoutMs} ms`);
      }
      if (error instanceof OciError) throw error;
      throw new OciError(
        "REGISTRY_UNREACHABLE",
        `${this.registry} could not be reached (${what}): ${messageOf(error)}`,
      );
    } finally {
      clearTimeout(timer);
    }
  }

  async #authorized(request: RegistryRequest, signal: AbortSignal): Promise<Response> {
    let response = await this.#send(request, this.#authorizationFor(request.scope), signal);
    if (response.status === 401) {
      const challenges = parseAuthChallenges(response.headers.get("www-authenticate") ?? "");
      await discard(response);
      response = await this.#send(request, await this.#answer(challenges, request.scope, signal), signal);
    }
    if (response.status === 401 || response.status === 403) {
      throw await registryRefusal(
        response,
        "REGISTRY_AUTH_FAILED",
        `${this.registry} refused access (${request.scope})`,
      );
    }
    return response;
  }

  async #send(request: RegistryRequest, authorization: string | undefined, signal: AbortSignal): Promise<Response> {
    let url = new URL(request.url, this.origin);
    for (let hops = 0; ; hops++) {
      const headers = new Headers(request.headers);
      if (authorization && url.origin === this.origin) headers.set("authorization", authorization);
      const response = await fetch(url, {
        method: request.method,
        headers,
        ...(request.body && { body: request.body }),
        redirect: "manual",
        signal,
      });
      const location = response.headers.get("location");
      const follows = (request.method === "GET" || request.method === "HEAD") && REDIRECT_STATUSES.has(response.status);
      if (!follows || !location) return response;
      await discard(response);
      if (hops === MAX_REDIRECTS) {
        throw new OciError(
          "REGISTRY_REFUSED",
          `${this.registry}: more than ${MAX_REDIRECTS} redirects`,
          response.status,
        );
      }
      url = new URL(location, url);
    }
  }

  #authorizationFor(scope: string): string | undefined {
    if (this.#basic && this.#credentials) return basicAuthorization(this.#credentials);
    const cached = this.#tokens.get(scope);
    return cached && cached.expiresAt > this.#now() ? `Bearer ${cached.token}` : undefined;
  }

  /** The Authorization header answering a 401's challenges. */
  async #answer(challenges: readonly AuthChallenge[], scope: string, signal: AbortSignal): Promise<string> {
    const bearer = challenges.find((challenge) => challenge.scheme === "bearer");
    if (bearer) return `Bearer ${await this.#token(bearer, scope, signal)}`;
    if (challenges.some((challenge) => challenge.scheme === "basic")) {
      if (!this.#credentials) {
        throw new OciError(
          "REGISTRY_AUTH_FAILED",
          `${this.registry} asks for credentials and none were given (RULE_SERVER_REGISTRY_AUTH or the Docker config.json)`,
          401,
        );
      }
      this.#basic = true;
      return basicAuthorization(this.#credentials);
    }
    throw new OciError(
      "REGISTRY_AUTH_FAILED",
      `${this.registry} answered 401 without a Bearer or Basic challenge`,
      401,
    );
  }

  /** A token for `scope` from the token server the challenge names (its realm), kept until it expires. */
  async #token(challenge: AuthChallenge, scope: string, signal: AbortSignal): Promise<string> {
    const url = tokenServerUrl(challenge, scope);
    if (!url) {
      throw new OciError("REGISTRY_REFUSED", `${this.registry} sent a Bearer challenge without an http(s) realm`, 401);
    }
    const headers = new Headers({ accept: "application/json" });
    if (this.#credentials) headers.set("authorization", basicAuthorization(this.#credentials));
    const server = `the token server ${url.origin} of ${this.registry}`;
    let response: Response;
    try {
      response = await fetch(url, { headers, redirect: "manual", signal });
    } catch (error) {
      if (signal.aborted) throw error;
      throw new OciError("REGISTRY_UNREACHABLE", `${server} could not be reached: ${messageOf(error)}`);
    }
    if (response.status === 401 || response.status === 403) {
      throw await registryRefusal(response, "REGISTRY_AUTH_FAILED", `${server} refused the credentials`);
    }
    if (response.status !== 200) throw await registryRefusal(response, "REGISTRY_REFUSED", `${server} gave no token`);
    const body = await readBoundedBody(
      response,
      TOKEN_BODY_LIMIT,
      () => new OciError("REGISTRY_REFUSED", `${server} answered with more than ${TOKEN_BODY_LIMIT} bytes`),
    );
    const answer = parseTokenAnswer(body);
    if (!answer) throw new OciError("REGISTRY_REFUSED", `${server} answered without a token`, response.status);
    const expiresAt = this.#now() + answer.seconds * 1000 - TOKEN_EXPIRY_MARGIN_MS;
    this.#tokens.set(scope, { token: answer.token, expiresAt });
    return answer.token;
  }
}

/** The token server's URL: the realm with `service` and the scope wanted (and the challenge's, when it names another). */
function tokenServerUrl(challenge: AuthChallenge, scope: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(challenge.params.realm ?? "");
  } catch {
    return undefined;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
  if (challenge.params.service) url.searchParams.set("service", challenge.params.service);
  url.searchParams.append("scope", scope);
  const asked = challenge.params.scope;
  if (asked && asked !== scope) url.searchParams.append("scope", asked);
  return url;
}

/** `token` (or OAuth's `access_token`) and its lifetime from a token server's JSON. */
function parseTokenAnswer(body: Uint8Array): { token: string; seconds: number } | undefined {
  let answer: { token?: unknown; access_token?: unknown; expires_in?: unknown };
  try {
    answer = JSON.parse(new TextDecoder().decode(body));
  } catch {
    return undefined;
  }
  const token = typeof answer.token === "string" && answer.token ? answer.token : answer.access_token;
  if (typeof token !== "string" || !token) return undefined;
  const seconds =
    typeof answer.expires_in === "number" && answer.expires_in > 0 ? answer.expires_in : DEFAULT_TOKEN_SECONDS;
  return { token, seconds };
}

function basicAuthorization(credentials: RegistryCredentials): string {
  return `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString("base64")}`;
}

/** Reads and drops a body we do not need, so that the connection can be used again. */
async function discard(response: Response): Promise<void> {
  await response.arrayBuffer().catch(() => {});
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
