import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rulesDirectory } from "../../support/rules-directory.ts";
import { serverEnvironment, startExpectingFailure } from "../../support/server-process.ts";
import { makeTestCertificates, type TestCertificates } from "../../support/test-certificates.ts";

/** TLS settings that cannot be served stop the start with a fatal line and status 1, before any rules load. */
let certificates: TestCertificates;
const rules = rulesDirectory();
beforeAll(() => {
  certificates = makeTestCertificates();
});
afterAll(() => {
  certificates.remove();
  rules.remove();
});

describe("TLS settings at start-up", () => {
  test("a certificate without its key, and a client CA without HTTPS, are configuration problems", async () => {
    const halves = await startExpectingFailure(
      serverEnvironment(rules.path, { RULE_SERVER_TLS_CERT: certificates.cert("server") }),
    );
    expect(halves.status).toBe(1);
    expect(halves.logs.at(-1)).toMatchObject({
      level: "fatal",
      msg: "invalid configuration",
      problems: ["RULE_SERVER_TLS_CERT is set without RULE_SERVER_TLS_KEY: HTTPS needs both"],
    });
    const caOnly = await startExpectingFailure(
      serverEnvironment(rules.path, { RULE_SERVER_TLS_CLIENT_CA: certificates.cert("ca") }),
    );
    expect(caOnly.status).toBe(1);
    expect(String(caOnly.logs.at(-1)?.problems)).toContain("client certificates need HTTPS");
  });

  for (const processes of ["1", "2"])
    test(`a key that is not the certificate's stops the start (RULE_SERVER_PROCESSES=${processes})`, async () => {
      const failed = await startExpectingFailure(
        serverEnvironment(rules.path, {
          RULE_SERVER_TLS_CERT: certificates.cert("server"),
          RULE_SERVER_TLS_KEY: certificates.key("client"),
          RULE_SERVER_PROCESSES: processes,
        }),
      );
      expect(failed.status).toBe(1);
      expect(failed.logs.at(-1)).toMatchObject({
        level: "fatal",
        msg: "the TLS files cannot be used",
        code: "TLS_FILES_INVALID",
      });
      // Nothing else happened: no rules were loaded, no process was started.
      expect(failed.logs.map((line) => line.msg)).toEqual(["the TLS files cannot be used"]);
      expect(failed.output).not.toContain("PRIVATE KEY");
    });
});
