import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rulesDirectory } from "../../support/rules-directory.ts";
import { serverEnvironment, startServer, TOKEN } from "../../support/server-process.ts";
import { makeTestCertificates, type TestCertificates } from "../../support/test-certificates.ts";
import { httpsRequest, servedCertificate } from "../../support/https-client.ts";
import { ALLOWED_ORDER } from "../../support/allowed-order.ts";

/** RULE_SERVER_TLS_CERT and _KEY: the server answers HTTPS only, with TLS 1.2 or later. */
let certificates: TestCertificates;
const rules = rulesDirectory();
beforeAll(() => {
  certificates = makeTestCertificates();
});
afterAll(() => {
  certificates.remove();
  rules.remove();
});

describe("HTTPS", () => {
  test("evaluations, health and the listening line over HTTPS; plain HTTP and TLS 1.1 are refused", async () => {
    const server = await startServer(
      serverEnvironment(rules.path, {
        RULE_SERVER_TLS_CERT: certificates.cert("server"),
        RULE_SERVER_TLS_KEY: certificates.key("server"),
      }),
    );
    try {
      const ca = certificates.text(certificates.cert("ca"));
      const url = `https://127.0.0.1:${server.port}`;
      expect((await httpsRequest(`${url}/healthz`, { ca })).status).toBe(200);
      const evaluation = await httpsRequest(`${url}/evaluations`, {
        ca,
        method: "POST",
        headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" },
        body: JSON.stringify(ALLOWED_ORDER),
      });
      expect(evaluation.status).toBe(200);
      expect(JSON.parse(evaluation.body).decision).toBe("allow");
      // curl, as an operator would try it.
      const curl = Bun.spawn(["curl", "-sS", "--cacert", certificates.cert("ca"), `${url}/healthz`], {
        stdout: "pipe",
      });
      expect(await curl.exited).toBe(0);
      expect(await new Response(curl.stdout).text()).toContain("ok");
      // A client that does not trust the server's CA is refused by its own side.
      await expect(fetch(`${url}/healthz`)).rejects.toThrow();
      // Plain HTTP on the HTTPS port gets no answer.
      await expect(fetch(`http://127.0.0.1:${server.port}/healthz`)).rejects.toThrow();
      const listening = server.logs().find((line) => line.msg === "listening");
      expect(listening?.tls).toEqual({ clientCertificates: false, notAfter: expect.any(String) });
      expect((await servedCertificate(server.port, certificates, { tls: "-tls1_1" })).handshake).toBe(false);
      const tls12 = await servedCertificate(server.port, certificates, { tls: "-tls1_2" });
      expect(tls12).toMatchObject({ handshake: true, subject: "rule-server" });
    } finally {
      await server.kill();
    }
  });
});
