import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";
import { JwtTokenVerifier } from "../../../src/server/auth/jwt-token-verifier.ts";
import { freePort } from "../../support/server-processes.ts";
import { makeTestCertificates, type TestCertificates } from "../../support/test-certificates.ts";

/**
 * A key set fetched over real HTTPS: an identity provider served by Bun.serve with a certificate
 * made by openssl, trusted through the fetch the verifier is given.
 */
const ISSUER = "https://id.example.com/";
const AUDIENCE = "rule-server";

let certificates: TestCertificates;
let ca: string;
let privateKey: CryptoKey;
let publicJwk: JWK;
beforeAll(async () => {
  certificates = makeTestCertificates();
  ca = certificates.text(certificates.cert("ca"));
  const pair = await generateKeyPair("RS256", { extractable: true });
  privateKey = pair.privateKey as CryptoKey;
  publicJwk = { ...(await exportJWK(pair.publicKey)), kid: "rsa-1", alg: "RS256" };
});
afterAll(() => certificates.remove());

type Answer = "keys" | "hang" | "html" | "redirect";
const servers: { stop(force: boolean): unknown }[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.stop(true);
});

/** The identity provider: answers its key set, or hangs, or an HTML page, or a redirect to plain http. */
function identityProvider(answer: { now: Answer }, port = 0) {
  const plain = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => Response.json({ keys: [publicJwk] }) });
  const server = Bun.serve({
    port,
    hostname: "127.0.0.1",
    tls: { cert: Bun.file(certificates.cert("server")), key: Bun.file(certificates.key("server")) },
    fetch: async () => {
      if (answer.now === "hang") await Bun.sleep(2000);
      if (answer.now === "html")
        return new Response("<html>sign in</html>", { headers: { "content-type": "text/html" } });
      if (answer.now === "redirect") return Response.redirect(`http://127.0.0.1:${plain.port}/jwks.json`, 302);
      return Response.json({ keys: [publicJwk] });
    },
  });
  servers.push(server, plain);
  return { server, url: `https://127.0.0.1:${server.port}/.well-known/jwks.json` };
}

const trustingTestCa = (url: string, init: { signal: AbortSignal }) => fetch(url, { ...init, tls: { ca } });

const verifier = (jwks: string, options: ConstructorParameters<typeof JwtTokenVerifier>[1] = {}) =>
  new JwtTokenVerifier({ jwks, issuer: ISSUER, audience: AUDIENCE }, { fetch: trustingTestCa, ...options });

const token = (subject = "svc-billing") =>
  new SignJWT({ scp: ["read"] })
    .setProtectedHeader({ alg: "RS256", kid: "rsa-1" })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setSubject(subject)
    .setExpirationTime("10m")
    .sign(privateKey);

describe("a key set over https", () => {
  test("is fetched and verifies tokens; with the provider gone, the last good keys still verify", async () => {
    const { server, url } = identityProvider({ now: "keys" });
    const remote = verifier(url);
    expect(await remote.keys.reload()).toBeUndefined();
    expect(await remote.verify(await token())).toEqual({
      ok: true,
      caller: { name: "svc-billing", scopes: new Set(["read"]) },
    });
    server.stop(true);
    expect(await remote.keys.reload()).toBe(`the key set at ${url} could not be fetched`);
    expect((await remote.verify(await token("svc-other"))).ok).toBe(true);
  });

  test("down at start: tokens refused with JWKS_UNAVAILABLE; once it is up, after the cool-down, verified", async () => {
    const port = freePort();
    let now = 1_000_000;
    const url = `https://127.0.0.1:${port}/.well-known/jwks.json`;
    const remote = verifier(url, { now: () => now });
    expect(await remote.keys.reload()).toBe(`the key set at ${url} could not be fetched`);
    expect(await remote.verify(await token())).toMatchObject({ ok: false, code: "JWKS_UNAVAILABLE" });
    identityProvider({ now: "keys" }, port);
    now += 31_000;
    expect((await remote.verify(await token())).ok).toBe(true);
  });

  test("that does not answer within the timeout: the fetch gives up; no keys, tokens refused", async () => {
    const { url } = identityProvider({ now: "hang" });
    const remote = verifier(url, { timeoutMs: 200 });
    const started = performance.now();
    expect(await remote.keys.reload()).toBe(`the key set at ${url} timed out`);
    expect(performance.now() - started).toBeLessThan(1500);
    expect(await remote.verify(await token())).toMatchObject({ ok: false, code: "JWKS_UNAVAILABLE" });
  });

  test("that answers a document that is not JSON: not taken, the last good keys kept", async () => {
    const answer = { now: "keys" as Answer };
    const { url } = identityProvider(answer);
    const remote = verifier(url);
    await remote.keys.reload();
    answer.now = "html";
    expect(await remote.keys.reload()).toBe(`the key set at ${url} is not JSON`);
    expect((await remote.verify(await token())).ok).toBe(true);
  });

  test("redirected to plain http: not taken", async () => {
    const { url } = identityProvider({ now: "redirect" });
    const remote = verifier(url);
    expect(await remote.keys.reload()).toBe(`the key set at ${url} was redirected to a URL that is not https`);
    expect(await remote.verify(await token())).toMatchObject({ ok: false, code: "JWKS_UNAVAILABLE" });
  });

  test("whose certificate is not trusted: not fetched", async () => {
    const { url } = identityProvider({ now: "keys" });
    const remote = verifier(url, { fetch: (target, init) => fetch(target, init) });
    expect(await remote.keys.reload()).toBe(`the key set at ${url} could not be fetched`);
  });
});
