import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";
import { JwksError } from "../../../src/server/auth/jwks-error.ts";
import { JwtTokenVerifier } from "../../../src/server/auth/jwt-token-verifier.ts";

/** When a key set at a URL is fetched again, and which documents are not taken: a stubbed provider on a hand-moved clock. */
const ISSUER = "https://id.example.com/";
const AUDIENCE = "rule-server";
const URL = "https://id.example.com/.well-known/jwks.json";
const scratch = mkdtempSync(join(tmpdir(), "rule-server-jwks-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;
const pairs: Record<string, KeyPair> = {};
const publicKeys: Record<string, JWK> = {};
let privateJwk: JWK;
beforeAll(async () => {
  for (const kid of ["old", "new"]) {
    pairs[kid] = await generateKeyPair("ES256", { extractable: true });
    publicKeys[kid] = { ...(await exportJWK(pairs[kid]!.publicKey)), kid, alg: "ES256" };
  }
  privateJwk = { ...(await exportJWK(pairs.old!.privateKey)), kid: "old", alg: "ES256" };
});

const token = (kid: string, expiresIn = "10m") =>
  new SignJWT({ scope: "evaluate" })
    .setProtectedHeader({ alg: "ES256", kid })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setSubject("svc-a")
    .setExpirationTime(expiresIn)
    .sign(pairs[kid]!.privateKey);

function provider(keys: JWK[]) {
  const state = { keys, status: 200, fetches: 0 };
  const fetch = async () => {
    state.fetches++;
    return new Response(JSON.stringify({ keys: state.keys }), { status: state.status });
  };
  return { state, fetch };
}

/** A background fetch on the stub resolves within a few turns. */
const settled = () => Bun.sleep(5);

describe("a key set at a URL", () => {
  test("is fetched again once refreshMs has passed: a key the provider dropped stops verifying", async () => {
    const { state, fetch } = provider([publicKeys.old!]);
    let now = 1_000_000;
    const remote = new JwtTokenVerifier({ jwks: URL, issuer: ISSUER, audience: AUDIENCE }, { fetch, now: () => now });
    expect(await remote.keys.reload()).toBeUndefined();
    const signed = await token("old");
    expect((await remote.verify(signed)).ok).toBe(true);
    state.keys = [publicKeys.new!];
    now += 9 * 60_000;
    expect((await remote.verify(signed)).ok).toBe(true);
    expect(state.fetches).toBe(1);
    now += 2 * 60_000;
    // Due: this token is still verified with the set in use while the new one is fetched beside it.
    expect((await remote.verify(signed)).ok).toBe(true);
    await settled();
    expect(state.fetches).toBe(2);
    expect(await remote.verify(signed)).toMatchObject({ ok: false, code: "JWT_KEY_UNKNOWN" });
    expect((await remote.verify(await token("new"))).ok).toBe(true);
  });

  test("that never loaded is tried again after the cool-down, not the refresh; that token waits for it", async () => {
    const { state, fetch } = provider([publicKeys.old!]);
    state.status = 503;
    let now = 1_000_000;
    const remote = new JwtTokenVerifier({ jwks: URL, issuer: ISSUER, audience: AUDIENCE }, { fetch, now: () => now });
    expect(await remote.keys.reload()).toBe(`the key set at ${URL} answered 503`);
    const signed = await token("old");
    state.status = 200;
    now += 20_000;
    expect(await remote.verify(signed)).toMatchObject({ ok: false, code: "JWKS_UNAVAILABLE" });
    expect(state.fetches).toBe(1);
    now += 11_000;
    expect((await remote.verify(signed)).ok).toBe(true);
    expect(state.fetches).toBe(2);
  });

  test("that fails after a good fetch keeps its keys, and is tried again after the cool-down", async () => {
    const { state, fetch } = provider([publicKeys.old!]);
    let now = 1_000_000;
    const remote = new JwtTokenVerifier({ jwks: URL, issuer: ISSUER, audience: AUDIENCE }, { fetch, now: () => now });
    await remote.keys.reload();
    state.status = 500;
    now += 11 * 60_000;
    expect((await remote.verify(await token("old"))).ok).toBe(true);
    await settled();
    expect(state.fetches).toBe(2);
    state.status = 200;
    state.keys = [publicKeys.new!];
    now += 20_000;
    expect((await remote.verify(await token("old"))).ok).toBe(true);
    expect(state.fetches).toBe(2);
    now += 11_000;
    await remote.verify(await token("old"));
    await settled();
    expect(state.fetches).toBe(3);
    expect((await remote.verify(await token("new"))).ok).toBe(true);
  });

  test("redirected to plain http is not taken", async () => {
    const fetch = async () => {
      const response = new Response(JSON.stringify({ keys: [publicKeys.old] }));
      Object.defineProperty(response, "url", { value: "http://id.example.com/jwks.json" });
      return response;
    };
    const remote = new JwtTokenVerifier({ jwks: URL, issuer: ISSUER, audience: AUDIENCE }, { fetch });
    expect(await remote.keys.reload()).toBe(`the key set at ${URL} was redirected to a URL that is not https`);
    expect(await remote.verify(await token("old"))).toMatchObject({ ok: false, code: "JWKS_UNAVAILABLE" });
  });

  test("plain http is refused at construction, whatever the host", () => {
    for (const jwks of ["http://id.example.com/jwks", "http://127.0.0.1:8080/jwks", "HTTP://localhost/jwks"])
      expect(() => new JwtTokenVerifier({ jwks, issuer: ISSUER, audience: AUDIENCE })).toThrow(JwksError);
  });
});

describe("a key set holding a private key", () => {
  test("is not taken: from a file it stops the start, on reload it keeps the keys in use", async () => {
    const file = join(scratch, "private.json");
    writeFileSync(file, JSON.stringify({ keys: [privateJwk] }));
    expect(() => new JwtTokenVerifier({ jwks: file, issuer: ISSUER, audience: AUDIENCE })).toThrow(
      `RULE_SERVER_JWT_JWKS ${file} holds a private key: a JWKS publishes public keys only`,
    );
    writeFileSync(file, JSON.stringify({ keys: [publicKeys.old] }));
    const verifier = new JwtTokenVerifier({ jwks: file, issuer: ISSUER, audience: AUDIENCE });
    writeFileSync(file, JSON.stringify({ keys: [publicKeys.new, privateJwk] }));
    expect(await verifier.keys.reload()).toContain("holds a private key");
    expect((await verifier.verify(await token("old"))).ok).toBe(true);
  });
});
