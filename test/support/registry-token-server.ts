import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { importPKCS8, SignJWT } from "jose";
import type { RegistryCredentials } from "../../src/oci/registry-credentials.ts";

/**
 * The token server of a registry in `auth.token` mode, as Docker's is: it checks Basic
 * credentials and issues ES256 JWTs granting what each `scope` asks, their header's `x5c` holding
 * a self-signed certificate that the registry trusts as its `rootcertbundle`.
 */
export interface RegistryTokenServer {
  /** The URL the registry sends clients to (its `realm`). */
  readonly realm: string;
  readonly service: string;
  readonly issuer: string;
  /** The certificate's PEM file, for the registry's `rootcertbundle`. */
  readonly certificate: string;
  /** How many token requests it has answered, refused ones included. */
  requests(): number;
  stop(): Promise<void>;
}

export const TOKEN_SERVICE = "rule-server-test-registry";
export const TOKEN_ISSUER = "rule-server-test-token-issuer";
const TOKEN_SECONDS = 300;

/** Starts a token server on 127.0.0.1 that knows one user; its key and certificate are made in `directory`. */
export async function startRegistryTokenServer(
  directory: string,
  user: RegistryCredentials,
): Promise<RegistryTokenServer> {
  const certificate = join(directory, "token-issuer.crt");
  const keyFile = join(directory, "token-issuer.key");
  execFileSync(
    "openssl",
    ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"].concat([
      "-keyout",
      keyFile,
      "-out",
      certificate,
      "-days",
      "2",
      "-subj",
      `/CN=${TOKEN_ISSUER}`,
    ]),
    { stdio: "pipe" },
  );
  const key = await importPKCS8(readFileSync(keyFile, "utf8"), "ES256");
  // The certificate's DER, base64: the PEM's body without its armour.
  const x5c = readFileSync(certificate, "utf8")
    .replace(/-----[A-Z ]+-----/g, "")
    .replace(/\s/g, "");
  const expected = `Basic ${Buffer.from(`${user.username}:${user.password}`).toString("base64")}`;
  let requests = 0;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      requests++;
      const url = new URL(request.url);
      if (url.pathname !== "/token") return new Response("not found", { status: 404 });
      if (request.headers.get("authorization") !== expected) {
        return Response.json({ errors: [{ code: "UNAUTHORIZED", message: "wrong credentials" }] }, { status: 401 });
      }
      const access = url.searchParams.getAll("scope").flatMap((scope) => {
        const [type, ...rest] = scope.split(":");
        const actions = rest.pop();
        return type && actions && rest.length > 0 ? [{ type, name: rest.join(":"), actions: actions.split(",") }] : [];
      });
      const now = Math.floor(Date.now() / 1000);
      const token = await new SignJWT({ access })
        .setProtectedHeader({ alg: "ES256", typ: "JWT", x5c: [x5c] })
        .setIssuer(TOKEN_ISSUER)
        .setSubject(user.username)
        .setAudience(url.searchParams.get("service") ?? "")
        .setIssuedAt(now)
        .setNotBefore(now - 1)
        .setExpirationTime(now + TOKEN_SECONDS)
        .setJti(crypto.randomUUID())
        .sign(key);
      return Response.json({ token, expires_in: TOKEN_SECONDS, issued_at: new Date(now * 1000).toISOString() });
    },
  });
  return {
    realm: `http://127.0.0.1:${server.port}/token`,
    service: TOKEN_SERVICE,
    issuer: TOKEN_ISSUER,
    certificate,
    requests: () => requests,
    stop: () => server.stop(true),
  };
}
