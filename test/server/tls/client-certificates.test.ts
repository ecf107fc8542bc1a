import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rulesDirectory } from "../../support/rules-directory.ts";
import { type ServerProcess, serverEnvironment, startServer } from "../../support/server-process.ts";
import { makeTestCertificates, type TestCertificates } from "../../support/test-certificates.ts";
import { httpsRequest, servedCertificate } from "../../support/https-client.ts";

/**
 * RULE_SERVER_TLS_CLIENT_CA: every connection must present a certificate that chains to it. Bun
 * has let untrusted client certificates through now and then (oven-sh/bun#27985, #33754), so each
 * refusal is tried on many fresh connections, with fetch and with curl.
 */
let certificates: TestCertificates;
let server: ServerProcess;
const rules = rulesDirectory();
beforeAll(async () => {
  certificates = makeTestCertificates();
  server = await startServer(
    serverEnvironment(rules.path, {
      RULE_SERVER_TLS_CERT: certificates.cert("server"),
      RULE_SERVER_TLS_KEY: certificates.key("server"),
      RULE_SERVER_TLS_CLIENT_CA: certificates.cert("ca"),
    }),
  );
});
afterAll(async () => {
  await server.kill();
  certificates.remove();
  rules.remove();
});

const FRESH_CONNECTIONS = 60;

/** How many of `count` requests on fresh connections, presenting `client` (none when undefined), got an answer. */
async function answered(client: string | undefined, count = FRESH_CONNECTIONS): Promise<number> {
  const ca = certificates.text(certificates.cert("ca"));
  const identity =
    client === undefined
      ? {}
      : { cert: certificates.text(certificates.cert(client)), key: certificates.text(certificates.key(client)) };
  let answers = 0;
  await Promise.all(
    Array.from({ length: count }, async () => {
      try {
        const answer = await httpsRequest(`https://127.0.0.1:${server.port}/healthz`, { ca, ...identity });
        if (answer.status === 200) answers++;
      } catch {
        // Refused: the handshake failed or the connection was closed before an answer.
      }
    }),
  );
  return answers;
}

async function curlAnswers(client: string | undefined): Promise<boolean> {
  const identity = client === undefined ? [] : ["--cert", certificates.cert(client), "--key", certificates.key(client)];
  const curl = Bun.spawn(
    ["curl", "-sS", "--cacert", certificates.cert("ca"), ...identity, `https://127.0.0.1:${server.port}/healthz`],
    { stdout: "pipe", stderr: "pipe" },
  );
  const [body, status] = await Promise.all([new Response(curl.stdout).text(), curl.exited]);
  return status === 0 && body.includes("ok");
}

describe("client certificates", () => {
  test("a certificate from the client CA is served on every connection", async () => {
    expect(await answered("client")).toBe(FRESH_CONNECTIONS);
    expect(await curlAnswers("client")).toBe(true);
    expect(server.logs().find((line) => line.msg === "listening")?.tls).toMatchObject({ clientCertificates: true });
  });

  test("a certificate from another CA is refused on every one of many fresh connections", async () => {
    expect(await answered("intruder")).toBe(0);
    for (let round = 0; round < 5; round++) expect(await curlAnswers("intruder")).toBe(false);
    expect((await servedCertificate(server.port, certificates, { client: "intruder" })).handshake).toBe(false);
  });

  test("no certificate is refused", async () => {
    expect(await answered(undefined)).toBe(0);
    expect(await curlAnswers(undefined)).toBe(false);
  });

  test("expired and not yet valid certificates from the client CA are refused", async () => {
    expect(await answered("expired", 20)).toBe(0);
    expect(await answered("not-yet-valid", 20)).toBe(0);
    expect(await curlAnswers("expired")).toBe(false);
    expect(await curlAnswers("not-yet-valid")).toBe(false);
  });

  test("the server answers good clients after refusing bad ones", async () => {
    expect(await answered("client", 10)).toBe(10);
  });
});
