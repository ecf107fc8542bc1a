import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { exportJWK, exportSPKI, generateKeyPair, type JWK, SignJWT, UnsecuredJWT } from "jose";
import { JwtTokenVerifier } from "../../../src/server/auth/jwt-token-verifier.ts";
import { JwksError } from "../../../src/server/auth/jwks-error.ts";

/** Bearer JWTs as the server verifies them: keys made here with jose, key sets from a file or a (stubbed) URL. */
const ISSUER = "https://id.example.com/";
const AUDIENCE = "rule-server";
const scratch = mkdtempSync(join(tmpdir(), "rule-server-jwt-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;
const pairs: Record<string, KeyPair> = {};
const jwks: JWK[] = [];
beforeAll(async () => {
  for (const alg of ["ES256", "RS256", "EdDSA"]) {
    pairs[alg] = await generateKeyPair(alg, { extractable: true });
    jwks.push({ ...(await exportJWK(pairs[alg]!.publicKey)), kid: alg, alg });
  }
});

function keySetFile(keys: readonly JWK[] = jwks): string {
  const file = join(scratch, `jwks-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify({ keys }));
  return file;
}

function token(
  alg = "ES256",
  claims: Record<string, unknown> = { scope: "evaluate read" },
  edit: (jwt: SignJWT) => SignJWT = (jwt) => jwt,
): Promise<string> {
  const jwt = new SignJWT(claims)
    .setProtectedHeader({ alg, kid: alg })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setSubject("user-42")
    .setIssuedAt()
    .setExpirationTime("10m");
  return edit(jwt).sign(pairs[alg]!.privateKey);
}

const verifier = (jwksSource = keySetFile(), options: ConstructorParameters<typeof JwtTokenVerifier>[1] = {}) =>
  new JwtTokenVerifier({ jwks: jwksSource, issuer: ISSUER, audience: AUDIENCE }, options);

describe("a JWT from a key set file", () => {
  test.each(["ES256", "RS256", "EdDSA"])("%s is verified; the caller is its sub, with its scopes", async (alg) => {
    const outcome = await verifier().verify(await token(alg));
    expect(outcome).toEqual({ ok: true, caller: { name: "user-42", scopes: new Set(["evaluate", "read"]) } });
  });

  test("scopes from scp, as a list or a string; words that are not scopes here are ignored", async () => {
    const list = await verifier().verify(await token("ES256", { scp: ["operate", "payments:write"] }));
    expect(list.ok && [...list.caller.scopes]).toEqual(["operate"]);
    const text = await verifier().verify(await token("ES256", { scp: "read openid" }));
    expect(text.ok && [...text.caller.scopes]).toEqual(["read"]);
  });

  test("expired, and not yet valid, outside the 60 s leeway; inside it, accepted", async () => {
    const now = Math.floor(Date.now() / 1000);
    const at = (exp: number, nbf?: number) =>
      token("ES256", {}, (jwt) => {
        jwt.setExpirationTime(exp);
        if (nbf !== undefined) jwt.setNotBefore(nbf);
        return jwt;
      });
    expect(await verifier().verify(await at(now - 120))).toMatchObject({ ok: false, code: "JWT_EXPIRED" });
    expect((await verifier().verify(await at(now - 30))).ok).toBe(true);
    expect(await verifier().verify(await at(now + 600, now + 120))).toMatchObject({
      ok: false,
      code: "JWT_NOT_YET_VALID",
    });
    expect((await verifier().verify(await at(now + 600, now + 30))).ok).toBe(true);
  });

  test("another issuer, another audience, no sub", async () => {
    expect(await verifier().verify(await token("ES256", {}, (jwt) => jwt.setIssuer("https://evil/")))).toMatchObject({
      ok: false,
      code: "JWT_ISSUER",
    });
    expect(await verifier().verify(await token("ES256", {}, (jwt) => jwt.setAudience("other")))).toMatchObject({
      ok: false,
      code: "JWT_AUDIENCE",
    });
    const withoutSub = await new SignJWT({})
      .setProtectedHeader({ alg: "ES256", kid: "ES256" })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setExpirationTime("10m")
      .sign(pairs.ES256!.privateKey);
    expect(await verifier().verify(withoutSub)).toMatchObject({ ok: false, code: "JWT_SUBJECT_MISSING" });
  });

  test("alg none, and HS256 signed with the public key as its secret, are refused", async () => {
    const unsecured = new UnsecuredJWT({ scope: "evaluate" })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject("user-42")
      .setExpirationTime("10m")
      .encode();
    expect(await verifier().verify(unsecured)).toMatchObject({ ok: false, code: "JWT_ALGORITHM" });
    const publicPem = new TextEncoder().encode(await exportSPKI(pairs.RS256!.publicKey));
    const forged = await new SignJWT({ scope: "evaluate" })
      .setProtectedHeader({ alg: "HS256", kid: "RS256" })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject("attacker")
      .setExpirationTime("10m")
      .sign(publicPem);
    expect(await verifier().verify(forged)).toMatchObject({ ok: false, code: "JWT_ALGORITHM" });
  });

  test("a key the set does not hold, a bad signature, and text that is no JWT", async () => {
    const onlyRsa = verifier(keySetFile(jwks.filter((key) => key.kid === "RS256")));
    expect(await onlyRsa.verify(await token("ES256"))).toMatchObject({ ok: false, code: "JWT_KEY_UNKNOWN" });
    const good = await token("ES256");
    const [header, payload] = good.split(".");
    const otherSignature = (await token("ES256", { scope: "operate" })).split(".")[2];
    expect(await verifier().verify(`${header}.${payload}.${otherSignature}`)).toMatchObject({
      ok: false,
      code: "JWT_SIGNATURE",
    });
    expect(await verifier().verify("aaa.bbb.ccc")).toMatchObject({ ok: false, code: "JWT_MALFORMED" });
  });

  test("a file that does not load stops the start; on reload it keeps the keys in use and says why", async () => {
    const missing = join(scratch, "none.json");
    expect(() => verifier(missing)).toThrow(JwksError);
    const notJson = join(scratch, "not.json");
    writeFileSync(notJson, "{keys:");
    expect(() => verifier(notJson)).toThrow(`RULE_SERVER_JWT_JWKS ${notJson} is not JSON`);
    expect(() => verifier("http://id.example.com/jwks")).toThrow("must be a file or an https:// URL");
    const file = keySetFile();
    const reloading = verifier(file);
    writeFileSync(file, JSON.stringify({ keys: [] }));
    expect(await reloading.keys.reload()).toBe(
      `RULE_SERVER_JWT_JWKS ${file} is not a JWKS: it needs a non-empty "keys" list`,
    );
    expect((await reloading.verify(await token("ES256"))).ok).toBe(true);
  });
});

describe("tokens verified lately", () => {
  test("are taken again until their exp and its leeway, not after", async () => {
    let now = Date.now();
    const cached = verifier(keySetFile(), { currentDate: () => new Date(now) });
    const short = await token("ES256", { scope: "evaluate" }, (jwt) =>
      jwt.setExpirationTime(Math.floor(now / 1000) + 5),
    );
    expect((await cached.verify(short)).ok).toBe(true);
    now += 30_000;
    expect((await cached.verify(short)).ok).toBe(true);
    now += 40_000;
    expect(await cached.verify(short)).toMatchObject({ ok: false, code: "JWT_EXPIRED" });
  });

  test("are forgotten when the key set changes: a key removed stops its tokens at once", async () => {
    const file = keySetFile();
    const cached = verifier(file);
    const signed = await token("ES256");
    expect((await cached.verify(signed)).ok).toBe(true);
    writeFileSync(file, JSON.stringify({ keys: jwks.filter((key) => key.kid !== "ES256") }));
    expect(await cached.keys.reload()).toBeUndefined();
    expect(await cached.verify(signed)).toMatchObject({ ok: false, code: "JWT_KEY_UNKNOWN" });
  });
});

describe("a JWT from a key set URL", () => {
  const URL = "https://id.example.com/.well-known/jwks.json";
  function provider() {
    const state = { keys: jwks as JWK[], status: 200, hang: false, body: undefined as string | undefined, fetches: 0 };
    const fetch = async (_url: string, init: { signal: AbortSignal }) => {
      state.fetches++;
      if (state.hang)
        return new Promise<Response>((_, reject) =>
          init.signal.addEventListener("abort", () => reject(init.signal.reason)),
        );
      return new Response(state.body ?? JSON.stringify({ keys: state.keys }), { status: state.status });
    };
    return { state, fetch };
  }

  test("before a first good fetch tokens are refused with JWKS_UNAVAILABLE; then verified", async () => {
    const { state, fetch } = provider();
    state.status = 503;
    const remote = verifier(URL, { fetch });
    expect(await remote.keys.reload()).toBe(`the key set at ${URL} answered 503`);
    expect(await remote.verify(await token())).toMatchObject({ ok: false, code: "JWKS_UNAVAILABLE" });
    state.status = 200;
    expect(await remote.keys.reload()).toBeUndefined();
    expect((await remote.verify(await token())).ok).toBe(true);
  });

  test("a fetch that fails, times out or brings no key set keeps the last good set", async () => {
    const { state, fetch } = provider();
    const remote = verifier(URL, { fetch, timeoutMs: 50 });
    await remote.keys.reload();
    state.status = 500;
    expect(await remote.keys.reload()).toContain("answered 500");
    state.status = 200;
    state.body = "<html>";
    expect(await remote.keys.reload()).toBe(`the key set at ${URL} is not JSON`);
    state.hang = true;
    expect(await remote.keys.reload()).toBe(`the key set at ${URL} timed out`);
    expect((await remote.verify(await token())).ok).toBe(true);
  });

  test("the set is fetched again once refreshMs has passed: a key the provider dropped stops verifying", async () => {
    const { state, fetch } = provider();
    let now = 1_000_000;
    const remote = verifier(URL, { fetch, now: () => now, refreshMs: 600_000 });
    await remote.keys.reload();
    const signed = await token("ES256");
    expect((await remote.verify(signed)).ok).toBe(true);
    state.keys = jwks.filter((key) => key.kid !== "ES256");
    now += 599_000;
    await remote.verify(await token("RS256"));
    expect(state.fetches).toBe(1);
    now += 2_000;
    // The refresh runs beside the request that found it due; the next one sees the new set.
    await remote.verify(await token("RS256"));
    await Bun.sleep(10);
    expect(state.fetches).toBe(2);
    expect(await remote.verify(await token("ES256"))).toMatchObject({ ok: false, code: "JWT_KEY_UNKNOWN" });
  });

  test("an unknown kid fetches the set again, at most once per cool-down: a rotated key is picked up", async () => {
    const { state, fetch } = provider();
    let now = 1_000_000;
    state.keys = jwks.filter((key) => key.kid !== "EdDSA");
    const remote = verifier(URL, { fetch, now: () => now });
    await remote.keys.reload();
    const rotated = await token("EdDSA");
    state.keys = jwks;
    // Within the cool-down after the first fetch: the set is not fetched again, however many tokens ask.
    for (let i = 0; i < 20; i++)
      expect(await remote.verify(rotated)).toMatchObject({ ok: false, code: "JWT_KEY_UNKNOWN" });
    expect(state.fetches).toBe(1);
    now += 31_000;
    expect((await remote.verify(rotated)).ok).toBe(true);
    expect(state.fetches).toBe(2);
  });
});
