import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { rulesDirectory } from "../../support/rules-directory.ts";
import { freePort } from "../../support/server-processes.ts";
import { serverEnvironment, startExpectingFailure, startServer, TOKEN } from "../../support/server-process.ts";
import { ALLOWED_ORDER } from "../../support/allowed-order.ts";

/** RULE_SERVER_JWT_*: a real server verifies bearer JWTs beside its token; the caller is the token's subject. */
const ISSUER = "https://id.example.com/";
const AUDIENCE = "rule-server";
const scratch = mkdtempSync(join(tmpdir(), "rule-server-jwt-server-"));
const rules = rulesDirectory();
const jwksFile = join(scratch, "jwks.json");
let privateKey: CryptoKey;
beforeAll(async () => {
  const pair = await generateKeyPair("ES256");
  privateKey = pair.privateKey as CryptoKey;
  writeFileSync(
    jwksFile,
    JSON.stringify({ keys: [{ ...(await exportJWK(pair.publicKey)), kid: "k1", alg: "ES256" }] }),
  );
});
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  rules.remove();
});

const jwt = (scope: string, expiresAt: number | string = "10m") =>
  new SignJWT({ scope })
    .setProtectedHeader({ alg: "ES256", kid: "k1" })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setSubject("svc-checkout")
    .setExpirationTime(expiresAt)
    .sign(privateKey);
const evaluate = (url: string, token: string) =>
  fetch(`${url}/evaluations`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify(ALLOWED_ORDER),
  });
const jwtSettings = (jwks: string) => ({
  RULE_SERVER_JWT_JWKS: jwks,
  RULE_SERVER_JWT_ISSUER: ISSUER,
  RULE_SERVER_JWT_AUDIENCE: AUDIENCE,
});

describe("bearer JWTs", () => {
  for (const processes of ["1", "2"])
    test(`a valid JWT is served with its subject as caller; a wrong one is 401 with the reason logged (RULE_SERVER_PROCESSES=${processes})`, async () => {
      const server = await startServer(
        serverEnvironment(rules.path, { ...jwtSettings(jwksFile), RULE_SERVER_PROCESSES: processes }),
      );
      try {
        const good = await evaluate(server.url, await jwt("evaluate"));
        expect(good.status).toBe(200);
        const line = await server.waitForLog((entry) => entry.msg === "request" && entry.caller === "svc-checkout");
        expect(line.status).toBe(200);
        // The token still works beside the JWTs.
        expect((await evaluate(server.url, TOKEN)).status).toBe(200);

        const expired = await evaluate(server.url, await jwt("evaluate", Math.floor(Date.now() / 1000) - 300));
        expect(expired.status).toBe(401);
        const refused = await server.waitForLog((entry) => entry.msg === "request" && entry.authError !== undefined);
        expect(refused).toMatchObject({ status: 401, authError: "JWT_EXPIRED" });
        expect(refused.caller).toBeUndefined();

        const readToken = await jwt("read");
        const readOnly = await evaluate(server.url, readToken);
        expect(readOnly.status).toBe(403);
        await server.waitForLog((entry) => entry.msg === "request" && entry.status === 403);
        // Neither the token nor any part of it is written anywhere.
        for (const part of readToken.split(".")) expect(server.output()).not.toContain(part);
      } finally {
        await server.kill();
      }
    }, 30_000);

  for (const processes of ["1", "2"])
    test(`a key set file read again on SIGHUP: a new key's tokens are served (RULE_SERVER_PROCESSES=${processes})`, async () => {
      const rotating = join(scratch, `jwks-${processes}.json`);
      writeFileSync(rotating, await Bun.file(jwksFile).text());
      const server = await startServer(
        serverEnvironment(rules.path, { ...jwtSettings(rotating), RULE_SERVER_PROCESSES: processes }),
      );
      try {
        const next = await generateKeyPair("ES256");
        const signed = await new SignJWT({ scope: "evaluate" })
          .setProtectedHeader({ alg: "ES256", kid: "k2" })
          .setIssuer(ISSUER)
          .setAudience(AUDIENCE)
          .setSubject("svc-new")
          .setExpirationTime("10m")
          .sign(next.privateKey);
        expect((await evaluate(server.url, signed)).status).toBe(401);
        writeFileSync(
          rotating,
          JSON.stringify({ keys: [{ ...(await exportJWK(next.publicKey)), kid: "k2", alg: "ES256" }] }),
        );
        server.signal("SIGHUP");
        await server.waitForLog((entry) => entry.msg === "rules reloaded");
        // Every process has read the set once the rules reload of the same SIGHUP is done everywhere.
        for (let request = 0; request < 6; request++) expect((await evaluate(server.url, signed)).status).toBe(200);
        // The old key is gone from the set: its tokens are refused, also one verified before.
        expect((await evaluate(server.url, await jwt("evaluate"))).status).toBe(401);
      } finally {
        await server.kill();
      }
    }, 30_000);

  test("a key set URL that is down at start: the server starts, says so, and refuses JWTs while the token works", async () => {
    const down = `https://127.0.0.1:${freePort()}/jwks.json`;
    const server = await startServer(serverEnvironment(rules.path, jwtSettings(down)));
    try {
      const warning = await server.waitForLog(
        (entry) => entry.msg === "the JWT key set did not load; JWTs are refused until it does",
      );
      expect(warning).toMatchObject({ level: "warn", problem: `the key set at ${down} could not be fetched` });
      expect((await evaluate(server.url, await jwt("evaluate"))).status).toBe(401);
      const refused = await server.waitForLog((entry) => entry.msg === "request" && entry.authError !== undefined);
      expect(refused.authError).toBe("JWKS_UNAVAILABLE");
      expect((await evaluate(server.url, TOKEN)).status).toBe(200);
    } finally {
      await server.kill();
    }
  });

  test("a key set file that does not load, or JWT settings missing one of three, stop the start", async () => {
    const broken = join(scratch, "broken.json");
    writeFileSync(broken, "not json");
    const failed = await startExpectingFailure(serverEnvironment(rules.path, jwtSettings(broken)));
    expect(failed.status).toBe(1);
    expect(failed.logs.at(-1)).toMatchObject({
      level: "fatal",
      msg: "the JWT key set cannot be used",
      code: "JWKS_INVALID",
      problem: `RULE_SERVER_JWT_JWKS ${broken} is not JSON`,
    });
    const partial = await startExpectingFailure(
      serverEnvironment(rules.path, { RULE_SERVER_JWT_JWKS: jwksFile, RULE_SERVER_JWT_ISSUER: ISSUER }),
    );
    expect(partial.status).toBe(1);
    expect(JSON.stringify(partial.logs.at(-1)?.problems)).toContain("RULE_SERVER_JWT_AUDIENCE is not set");
  });
});
