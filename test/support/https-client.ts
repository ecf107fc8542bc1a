import type { TestCertificates } from "./test-certificates.ts";

/** What a request over HTTPS came back with. */
export interface HttpsAnswer {
  readonly status: number;
  readonly body: string;
}

/** A request on a connection of its own (no pooling: each one is a new TLS handshake), trusting `ca`. */
export async function httpsRequest(
  url: string,
  options: {
    readonly ca: string;
    readonly cert?: string;
    readonly key?: string;
    readonly method?: string;
    readonly headers?: Record<string, string>;
    readonly body?: string;
    readonly reuseConnection?: boolean;
  },
): Promise<HttpsAnswer> {
  const { ca, cert, key, reuseConnection, ...request } = options;
  const response = await fetch(url, {
    ...request,
    keepalive: reuseConnection === true,
    tls: { ca, ...(cert === undefined ? {} : { cert, key }) },
  } as RequestInit);
  return { status: response.status, body: await response.text() };
}

/**
 * The certificate a server presents, as openssl s_client sees it: whether the handshake completed
 * (and a request could be made) and the subject's common name. `client`: the certificate to present.
 */
export async function servedCertificate(
  port: number,
  certificates: TestCertificates,
  options: { readonly tls?: string; readonly client?: string } = {},
): Promise<{ handshake: boolean; subject: string | undefined }> {
  const client =
    options.client === undefined
      ? []
      : ["-cert", certificates.cert(options.client), "-key", certificates.key(options.client)];
  const child = Bun.spawn(
    [
      "openssl",
      "s_client",
      "-ign_eof",
      "-connect",
      `127.0.0.1:${port}`,
      "-CAfile",
      certificates.cert("ca"),
      ...(options.tls === undefined ? [] : [options.tls]),
      ...client,
    ],
    {
      stdin: new TextEncoder().encode("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
      stdout: "pipe",
      stderr: "pipe",
    },
  );
  const [output] = await Promise.all([new Response(child.stdout).text(), child.exited]);
  return {
    handshake: /HTTP\/1\.1 200/.test(output),
    subject: /subject=CN\s*=\s*([^\n]+)/.exec(output)?.[1]?.trim(),
  };
}
