import { errors, type JWTPayload, type JWTVerifyGetKey, type JWTVerifyOptions, jwtVerify, type KeyObject } from "jose";
import type { JwtSettings } from "../config/server-options.ts";
import type { JwtCallers } from "./authenticator.ts";
import { type Caller, isScope, type Scope } from "./caller.ts";
import { type JwksFetching, JwtKeySet } from "./jwt-key-set.ts";

/** What a refused token is logged with (`authError`): never the token. */
export type JwtRefusal =
  | "JWKS_UNAVAILABLE"
  | "JWT_MALFORMED"
  | "JWT_ALGORITHM"
  | "JWT_KEY_UNKNOWN"
  | "JWT_SIGNATURE"
  | "JWT_EXPIRED"
  | "JWT_NOT_YET_VALID"
  | "JWT_ISSUER"
  | "JWT_AUDIENCE"
  | "JWT_SUBJECT_MISSING"
  | "JWT_INVALID";

/** Asymmetric only: an HMAC token signed with a public key as its secret must never verify. */
const ALGORITHMS = ["RS256", "ES256", "EdDSA"];
/** Verified tokens kept (JwtTokenVerifier.verified); past it the oldest is forgotten. */
const MAX_VERIFIED = 1024;
/** Seconds of clock skew allowed on exp, nbf and iat. */
const LEEWAY_SECONDS = 60;

/**
 * Bearer JWTs (DECISIONS.md, Secure API): signed with RS256, ES256 or EdDSA by a key of the set,
 * from the issuer, for the audience, within exp and nbf (60 s of leeway), with a `sub` (the
 * caller's name). Scopes from `scope` (space-separated) or `scp` (a list, or a string); words
 * that are not this server's scopes are ignored, as an identity provider issues scopes for others.
 */
export class JwtTokenVerifier implements JwtCallers {
  readonly keys: JwtKeySet;

  constructor(
    private readonly settings: JwtSettings,
    fetching: JwksFetching & { readonly currentDate?: () => Date } = {},
  ) {
    this.keys = new JwtKeySet(settings.jwks, fetching);
    this.currentDate = fetching.currentDate;
  }

  private readonly currentDate: (() => Date) | undefined;
  /**
   * Tokens verified lately, until they expire: a client sends the same token with many requests,
   * and a signature check costs as much as the evaluation (ES256, RS256). A new key set forgets
   * them all; a token is found by its whole text, which only a verified token's holder has.
   */
  private readonly verified = new Map<string, { caller: Caller; until: number; generation: number }>();

  async verify(token: string): Promise<{ ok: true; caller: Caller } | { ok: false; code: JwtRefusal; reason: string }> {
    const now = this.currentDate?.().getTime() ?? Date.now();
    // First, so that a set that is due is fetched again even while every token is one verified lately.
    let keys = await this.keys.current();
    if (keys === undefined) return { ok: false, code: "JWKS_UNAVAILABLE", reason: "no key set has loaded yet" };
    const known = this.verified.get(token);
    if (known !== undefined && known.until > now && known.generation === keys.generation)
      return { ok: true, caller: known.caller };
    if (known !== undefined) this.verified.delete(token);
    let outcome = await this.once(token, keys.getKey);
    // A key the set does not hold yet (the provider rotated its keys): fetch the set again, within the cool-down.
    if (!outcome.ok && outcome.code === "JWT_KEY_UNKNOWN" && (await this.keys.refreshForUnknownKey())) {
      keys = (await this.keys.current()) ?? keys;
      outcome = await this.once(token, keys.getKey);
    }
    // Remembered with the set it was verified with: a set taken since, while it was verified, forgets it.
    if (outcome.ok && outcome.until !== undefined) {
      if (this.verified.size >= MAX_VERIFIED) this.verified.delete(this.verified.keys().next().value!);
      this.verified.set(token, { caller: outcome.caller, until: outcome.until, generation: keys.generation });
    }
    return outcome.ok ? { ok: true, caller: outcome.caller } : outcome;
  }

  /** One verification; `until`: the time (ms) past which it no longer holds, its exp with the leeway (none without exp). */
  private async once(
    token: string,
    getKey: JWTVerifyGetKey,
  ): Promise<{ ok: true; caller: Caller; until?: number } | { ok: false; code: JwtRefusal; reason: string }> {
    const currentDate = this.currentDate?.() ?? new Date();
    const options: JWTVerifyOptions = {
      algorithms: ALGORITHMS,
      issuer: this.settings.issuer,
      audience: this.settings.audience,
      clockTolerance: LEEWAY_SECONDS,
      currentDate,
    };
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, getKey, options));
    } catch (error) {
      if (!(error instanceof errors.JWKSMultipleMatchingKeys)) return refusal(error);
      // No kid, and the set holds several keys for its algorithm (a rotation): each is tried.
      const verified = await verifiedByAny(token, error as AsyncIterable<CryptoKey | KeyObject>, options);
      if (!verified.ok) return verified;
      payload = verified.payload;
    }
    // jose checks iat only against a maximum age; issued in the future, past the leeway, is not valid yet.
    if (typeof payload.iat === "number" && payload.iat > currentDate.getTime() / 1000 + LEEWAY_SECONDS)
      return { ok: false, code: "JWT_NOT_YET_VALID", reason: '"iat" claim timestamp check failed (in the future)' };
    if (typeof payload.sub !== "string" || payload.sub === "")
      return { ok: false, code: "JWT_SUBJECT_MISSING", reason: "the token has no sub" };
    const caller = { name: payload.sub, scopes: scopesOf(payload) };
    return typeof payload.exp === "number"
      ? { ok: true, caller, until: (payload.exp + LEEWAY_SECONDS) * 1000 }
      : { ok: true, caller };
  }
}

async function verifiedByAny(
  token: string,
  keys: AsyncIterable<CryptoKey | KeyObject>,
  options: JWTVerifyOptions,
): Promise<{ ok: true; payload: JWTPayload } | { ok: false; code: JwtRefusal; reason: string }> {
  let last: unknown = new errors.JWSSignatureVerificationFailed();
  for await (const key of keys) {
    try {
      return { ok: true, payload: (await jwtVerify(token, key, options)).payload };
    } catch (error) {
      last = error;
      // Only a signature that another key may verify is worth the next key; a claim fails with all.
      if (!(error instanceof errors.JWSSignatureVerificationFailed)) break;
    }
  }
  return refusal(last);
}

function scopesOf(payload: JWTPayload): ReadonlySet<Scope> {
  const words: unknown[] = [];
  for (const claim of [payload.scope, payload.scp]) {
    if (typeof claim === "string") words.push(...claim.split(" "));
    else if (Array.isArray(claim)) words.push(...claim);
  }
  return new Set(words.filter(isScope));
}

function refusal(error: unknown): { ok: false; code: JwtRefusal; reason: string } {
  const reason = error instanceof Error ? error.message : String(error);
  if (error instanceof errors.JWTExpired) return { ok: false, code: "JWT_EXPIRED", reason };
  if (error instanceof errors.JWTClaimValidationFailed) {
    const claim = error.claim;
    // A date claim that is not a number is a malformed token, not one outside its dates.
    const code =
      error.reason === "invalid" && (claim === "exp" || claim === "nbf" || claim === "iat")
        ? "JWT_MALFORMED"
        : claim === "nbf" || claim === "iat"
          ? "JWT_NOT_YET_VALID"
          : claim === "iss"
            ? "JWT_ISSUER"
            : claim === "aud"
              ? "JWT_AUDIENCE"
              : "JWT_INVALID";
    return { ok: false, code, reason };
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return { ok: false, code: "JWT_ALGORITHM", reason };
  if (error instanceof errors.JWKSNoMatchingKey) return { ok: false, code: "JWT_KEY_UNKNOWN", reason };
  if (error instanceof errors.JWSSignatureVerificationFailed) return { ok: false, code: "JWT_SIGNATURE", reason };
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid)
    return { ok: false, code: "JWT_MALFORMED", reason };
  return { ok: false, code: "JWT_INVALID", reason };
}
