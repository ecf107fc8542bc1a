import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Certificates made with openssl for the HTTPS tests, in a temporary directory: a test CA and
 * another CA nobody trusts, server certificates for 127.0.0.1 and localhost, and client
 * certificates that are good, from the other CA, expired, and not valid yet. EC P-256 keys: quick
 * to make. Each certificate is a PEM file `<name>.crt` beside its key `<name>.key`.
 */
export interface TestCertificates {
  readonly dir: string;
  /** The path of `<name>.crt`. */
  cert(name: string): string;
  /** The path of `<name>.key`. */
  key(name: string): string;
  /** A file's text, for fetch's `tls` option. */
  text(path: string): string;
  /** Makes another certificate signed by `ca` (a certificate for 127.0.0.1 and localhost when `server`). */
  issue(name: string, options: IssueOptions): void;
  remove(): void;
}

export interface IssueOptions {
  readonly ca: "ca" | "other-ca";
  readonly commonName?: string;
  readonly server?: boolean;
  /** `YYYYMMDDHHMMSSZ`; now by default. */
  readonly notBefore?: string;
  /** `YYYYMMDDHHMMSSZ`; two days from now by default. */
  readonly notAfter?: string;
}

export function makeTestCertificates(): TestCertificates {
  const dir = mkdtempSync(join(tmpdir(), "rule-server-tls-"));
  const openssl = (...args: string[]): void => void execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });
  const newKey = (name: string): string[] => [
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:P-256",
    "-nodes",
    "-keyout",
    `${name}.key`,
  ];
  for (const ca of ["ca", "other-ca"]) {
    openssl("req", "-x509", ...newKey(ca), "-out", `${ca}.crt`, "-days", "2", "-subj", `/CN=rule-server ${ca}`);
    mkdirSync(join(dir, `${ca}-db`));
    writeFileSync(join(dir, `${ca}-db`, "index.txt"), "");
    writeFileSync(join(dir, `${ca}-db`, "serial"), "01\n");
    writeFileSync(
      join(dir, `${ca}.cnf`),
      [
        "[ca]",
        "default_ca = signing",
        "[signing]",
        `database = ${ca}-db/index.txt`,
        `new_certs_dir = ${ca}-db`,
        `serial = ${ca}-db/serial`,
        "default_md = sha256",
        "policy = any",
        "unique_subject = no",
        "copy_extensions = copy",
        "[any]",
        "commonName = supplied",
        "",
      ].join("\n"),
    );
  }
  const issue = (name: string, options: IssueOptions): void => {
    const san = options.server ? ["-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"] : [];
    openssl("req", ...newKey(name), "-out", `${name}.csr`, "-subj", `/CN=${options.commonName ?? name}`, ...san);
    const now = new Date();
    const stamp = (date: Date): string => `${date.toISOString().replace(/[-:T]/g, "").slice(0, 14)}Z`;
    openssl(
      "ca",
      "-batch",
      "-config",
      `${options.ca}.cnf`,
      "-cert",
      `${options.ca}.crt`,
      "-keyfile",
      `${options.ca}.key`,
      "-in",
      `${name}.csr`,
      "-out",
      `${name}.crt`,
      "-notext",
      "-startdate",
      options.notBefore ?? stamp(new Date(now.getTime() - 60_000)),
      "-enddate",
      options.notAfter ?? stamp(new Date(now.getTime() + 2 * 86_400_000)),
    );
  };
  issue("server", { ca: "ca", server: true, commonName: "rule-server" });
  issue("client", { ca: "ca", commonName: "payments-api" });
  issue("intruder", { ca: "other-ca" });
  issue("expired", { ca: "ca", notBefore: "20200101000000Z", notAfter: "20200201000000Z" });
  issue("not-yet-valid", { ca: "ca", notBefore: "20400101000000Z", notAfter: "20400201000000Z" });
  return {
    dir,
    cert: (name) => join(dir, `${name}.crt`),
    key: (name) => join(dir, `${name}.key`),
    text: (path) => readFileSync(path, "utf8"),
    issue,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
