import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { base64url, exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";
import { JwtTokenVerifier } from "../../../src/server/auth/jwt-token-verifier.ts";

/** What a JWT's claims and header must be beyond the common cases: iat, dates that are no numbers, no kid; and what a refusal says. */
const ISSUER = "https://id.example.com/";
const AUDIENCE = "rule-server";
const scratch = mkdtempSync(join(tmpdir(), "rule-server-jwt-claims-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;
const pairs: KeyPair[] = [];
let jwksFile: string;
beforeAll(async () => {
  const keys: JWK[] = [];
  // Two EdDSA keys without kids, as a provider in the middle of a rotation may publish them.
  for (let i = 0; i < 2; i++) {
    pairs.push(await generateKeyPair("EdDSA", { extractable: true }));
    keys.push({ ...(await exportJWK(pairs[i]!.publicKey)), alg: "EdDSA" });
  }
  jwksFile = join(scratch, "jwks.json");
  writeFileSync(jwksFile, JSON.stringify({ keys }));
});

const verifier = () => new JwtTokenVerifier({ jwks: jwksFile, issuer: ISSUER, audience: AUDIENCE });
const signed = (claims: Record<string, unknown>, key = pairs[1]!.privateKey) =>
  new SignJWT({ sub: "svc-a", iss: ISSUER, aud: AUDIENCE, exp: Math.floor(Date.now() / 1000) + 600, ...claims })
    .setProtectedHeader({ alg: "EdDSA" })
    .sign(key);

describe("claims", () => {
  test("issued in the future: refused past the 60 s leeway, accepted within it", async () => {
    const now = Math.floor(Date.now() / 1000);
    expect(await verifier().verify(await signed({ iat: now + 120 }))).toMatchObject({
      ok: false,
      code: "JWT_NOT_YET_VALID",
    });
    expect((await verifier().verify(await signed({ iat: now + 30 }))).ok).toBe(true);
  });

  test("a date that is not a number is a malformed token", async () => {
    for (const claim of ["exp", "nbf", "iat"])
      expect(await verifier().verify(await signed({ [claim]: "tomorrow" }))).toMatchObject({
        ok: false,
        code: "JWT_MALFORMED",
      });
  });

  test("an empty sub is no sub", async () => {
    expect(await verifier().verify(await signed({ sub: "" }))).toMatchObject({
      ok: false,
      code: "JWT_SUBJECT_MISSING",
    });
  });

  test("scope and scp together give both; repeated and empty words count once or not at all", async () => {
    const outcome = await verifier().verify(await signed({ scope: "read  read evaluate", scp: ["operate", 7] }));
    expect(outcome.ok && [...outcome.caller.scopes].sort()).toEqual(["evaluate", "operate", "read"]);
  });
});

describe("a token without a kid", () => {
  test("is verified by whichever of the set's keys for its algorithm signed it", async () => {
    expect((await verifier().verify(await signed({}, pairs[0]!.privateKey))).ok).toBe(true);
    expect((await verifier().verify(await signed({}, pairs[1]!.privateKey))).ok).toBe(true);
  });

  test("signed by none of them is a bad signature; one that fails its claims fails them, whichever key", async () => {
    const stranger = await generateKeyPair("EdDSA");
    expect(await verifier().verify(await signed({}, stranger.privateKey))).toMatchObject({
      ok: false,
      code: "JWT_SIGNATURE",
    });
    expect(await verifier().verify(await signed({ aud: "another-service" }))).toMatchObject({
      ok: false,
      code: "JWT_AUDIENCE",
    });
  });
});

describe("a refusal's reason", () => {
  test("never holds the token nor any of its parts", async () => {
    const now = Math.floor(Date.now() / 1000);
    const good = await signed({});
    const [header, payload] = good.split(".");
    const stranger = await generateKeyPair("EdDSA");
    const tokens = [
      await signed({ exp: now - 3600 }),
      await signed({ nbf: now + 3600 }),
      await signed({ iss: "https://elsewhere/" }),
      await signed({ aud: "elsewhere" }),
      await signed({ sub: undefined }),
      await signed({ exp: "soon" }),
      await signed({}, stranger.privateKey),
      `${header}.${payload}.${base64url.encode("not a signature")}`,
      `${base64url.encode('{"alg":"none"}')}.${payload}.`,
      `${base64url.encode('{"alg":"HS256"}')}.${payload}.${base64url.encode("mac")}`,
      `${base64url.encode("{not json")}.${payload}.${base64url.encode("x")}`,
      `${header}.${base64url.encode("[1,2]")}.${base64url.encode("x")}`,
      "not-a-jwt-at-all",
      "",
    ];
    const verifying = verifier();
    for (const token of tokens) {
      const outcome = await verifying.verify(token);
      expect(outcome.ok).toBe(false);
      if (outcome.ok) continue;
      expect(outcome.reason.length).toBeGreaterThan(0);
      for (const part of token.split(".").filter((part) => part.length >= 8))
        expect(outcome.reason).not.toContain(part);
    }
  });
});
