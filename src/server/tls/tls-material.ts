import type { KeyObject, X509Certificate } from "node:crypto";
import { readFileSync } from "node:fs";

/** node:crypto when TLS is configured only: a plain-HTTP start loads none of it (test/architecture). */
let crypto: typeof import("node:crypto") | undefined;
const loadCrypto = (): typeof import("node:crypto") => (crypto ??= process.getBuiltinModule("node:crypto"));

/** Where HTTPS reads its certificate, key and (for client certificates) the CA clients must chain to. */
export interface TlsFiles {
  /** RULE_SERVER_TLS_CERT: the server's certificate, PEM, its chain after it. */
  readonly certFile: string;
  /** RULE_SERVER_TLS_KEY: the certificate's private key, PEM. */
  readonly keyFile: string;
  /** RULE_SERVER_TLS_CLIENT_CA: every connection must present a certificate that chains to one of these. */
  readonly clientCaFile?: string;
}

/** The files' contents once they load and agree, as Bun.serve takes them; plain data, so it crosses to serving processes. */
export interface TlsMaterial {
  readonly cert: string;
  readonly key: string;
  readonly clientCa?: string;
  /** Tells one loading from another: the same files give the same value, and then nothing is rotated. */
  readonly fingerprint: string;
  /** When the server's certificate expires, ISO 8601. */
  readonly notAfter: string;
}

/** Files that do not make a usable TLS configuration; every problem is named, never a key's bytes. */
export class TlsFilesError extends Error {
  readonly code = "TLS_FILES_INVALID" as const;
  override readonly name = "TlsFilesError";
  constructor(readonly problems: readonly string[]) {
    super(problems.join("; "));
  }
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/**
 * Reads and checks the files: each one there, the certificates parse, the key is a private key that
 * belongs to the first certificate, the client CA holds at least one certificate. Checked here, not
 * by the TLS library at listen time, so that a bad file is refused with its reason and, on SIGHUP,
 * leaves the certificates being served in place. Throws TlsFilesError.
 */
export function readTlsMaterial(files: TlsFiles): TlsMaterial {
  const problems: string[] = [];
  const read = (path: string, name: string): string | undefined => {
    try {
      return readFileSync(path, "utf8");
    } catch (error) {
      problems.push(`${name} ${path} cannot be read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
      return undefined;
    }
  };
  const cert = read(files.certFile, "RULE_SERVER_TLS_CERT");
  const key = read(files.keyFile, "RULE_SERVER_TLS_KEY");
  const clientCa = files.clientCaFile === undefined ? undefined : read(files.clientCaFile, "RULE_SERVER_TLS_CLIENT_CA");
  const certificates =
    cert === undefined ? [] : certificatesIn(cert, `RULE_SERVER_TLS_CERT ${files.certFile}`, problems);
  const privateKey = key === undefined ? undefined : privateKeyIn(key, files.keyFile, problems);
  const leaf = certificates[0];
  if (leaf !== undefined && privateKey !== undefined && !leaf.checkPrivateKey(privateKey))
    problems.push(
      `RULE_SERVER_TLS_KEY ${files.keyFile} is not the private key of the certificate in RULE_SERVER_TLS_CERT ${files.certFile}`,
    );
  if (clientCa !== undefined) certificatesIn(clientCa, `RULE_SERVER_TLS_CLIENT_CA ${files.clientCaFile}`, problems);
  if (problems.length > 0 || cert === undefined || key === undefined || leaf === undefined)
    throw new TlsFilesError(problems);
  const fingerprint = loadCrypto()
    .createHash("sha256")
    .update(cert)
    .update("\0")
    .update(key)
    .update("\0")
    .update(clientCa ?? "")
    .digest("hex");
  return {
    cert,
    key,
    ...(clientCa === undefined ? {} : { clientCa }),
    fingerprint,
    notAfter: new Date(leaf.validTo).toISOString(),
  };
}

function certificatesIn(text: string, where: string, problems: string[]): X509Certificate[] {
  const blocks = text.match(PEM_CERTIFICATE) ?? [];
  if (blocks.length === 0) {
    problems.push(`${where} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
    return [];
  }
  const certificates: X509Certificate[] = [];
  for (const [index, block] of blocks.entries()) {
    try {
      certificates.push(new (loadCrypto().X509Certificate)(block));
    } catch {
      problems.push(`${where}: certificate ${index + 1} does not parse`);
    }
  }
  return certificates;
}

function privateKeyIn(text: string, path: string, problems: string[]): KeyObject | undefined {
  try {
    return loadCrypto().createPrivateKey(text);
  } catch {
    // The library's message can quote the key's bytes: say only what is wrong.
    problems.push(
      `RULE_SERVER_TLS_KEY ${path} holds no private key in PEM form that can be read (an encrypted key needs its passphrase removed)`,
    );
    return undefined;
  }
}
