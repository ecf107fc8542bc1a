import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { readTlsMaterial, TlsFilesError } from "../../../src/server/tls/tls-material.ts";
import { makeTestCertificates, type TestCertificates } from "../../support/test-certificates.ts";

/** The TLS files are checked before they are served: each bad file is named with what is wrong, never with a key's bytes. */
let certificates: TestCertificates;
beforeAll(() => {
  certificates = makeTestCertificates();
});
afterAll(() => certificates.remove());

function problemsOf(files: { certFile: string; keyFile: string; clientCaFile?: string }): readonly string[] {
  try {
    readTlsMaterial(files);
  } catch (error) {
    expect(error).toBeInstanceOf(TlsFilesError);
    expect((error as TlsFilesError).code).toBe("TLS_FILES_INVALID");
    return (error as TlsFilesError).problems;
  }
  throw new Error("the files were accepted");
}

describe("readTlsMaterial", () => {
  test("good files give their contents, a fingerprint that changes with them, and the expiry", () => {
    const files = { certFile: certificates.cert("server"), keyFile: certificates.key("server") };
    const material = readTlsMaterial(files);
    expect(material.cert).toContain("BEGIN CERTIFICATE");
    expect(Date.parse(material.notAfter)).toBeGreaterThan(Date.now());
    expect(readTlsMaterial(files).fingerprint).toBe(material.fingerprint);
    const withCa = readTlsMaterial({ ...files, clientCaFile: certificates.cert("ca") });
    expect(withCa.clientCa).toContain("BEGIN CERTIFICATE");
    expect(withCa.fingerprint).not.toBe(material.fingerprint);
  });

  test("a missing file is named", () => {
    const missing = join(certificates.dir, "nowhere.crt");
    expect(problemsOf({ certFile: missing, keyFile: certificates.key("server") })).toEqual([
      `RULE_SERVER_TLS_CERT ${missing} cannot be read: ENOENT`,
    ]);
  });

  test("a key that belongs to another certificate", () => {
    expect(problemsOf({ certFile: certificates.cert("server"), keyFile: certificates.key("client") })).toEqual([
      `RULE_SERVER_TLS_KEY ${certificates.key("client")} is not the private key of the certificate in RULE_SERVER_TLS_CERT ${certificates.cert("server")}`,
    ]);
  });

  test("files that hold no certificate or no key, without quoting them", () => {
    const garbage = join(certificates.dir, "garbage.pem");
    writeFileSync(garbage, "not a certificate, secret-ish bytes\n");
    const problems = problemsOf({ certFile: garbage, keyFile: garbage, clientCaFile: garbage });
    expect(problems).toEqual([
      `RULE_SERVER_TLS_CERT ${garbage} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`,
      `RULE_SERVER_TLS_KEY ${garbage} holds no private key in PEM form that can be read (an encrypted key needs its passphrase removed)`,
      `RULE_SERVER_TLS_CLIENT_CA ${garbage} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`,
    ]);
    expect(problems.join("\n")).not.toContain("secret-ish");
  });

  test("a certificate block that does not parse", () => {
    const broken = join(certificates.dir, "broken.crt");
    writeFileSync(broken, "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n");
    expect(problemsOf({ certFile: broken, keyFile: certificates.key("server") })).toEqual([
      `RULE_SERVER_TLS_CERT ${broken}: certificate 1 does not parse`,
    ]);
  });
});
