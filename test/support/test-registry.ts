import { existsSync, mkdtempSync, openSync, closeSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import type { RegistryCredentials } from "../../src/oci/registry-credentials.ts";
import { type RegistryTokenServer, startRegistryTokenServer } from "./registry-token-server.ts";

/**
 * A real OCI registry for a test file: Debian's docker-registry (Distribution 2.8) on 127.0.0.1,
 * its storage in a temporary directory removed on stop. `basic` checks an htpasswd file (bcrypt),
 * `token` sends clients to a token server the test runs (`registry-token-server.ts`).
 */
export interface TestRegistry {
  /** `127.0.0.1:PORT`. */
  readonly host: string;
  /** The one user a `basic` or `token` registry knows. */
  readonly credentials: RegistryCredentials;
  readonly tokenServer: RegistryTokenServer | undefined;
  /** The registry's own log, to read why it refused something. */
  logs(): string;
  stop(): Promise<void>;
}

export type TestRegistryAuth = "none" | "basic" | "token";

export const REGISTRY_BINARY = "/usr/bin/docker-registry";
const TEST_USER: RegistryCredentials = { username: "rules-ci", password: "s3cret-for-tests" };
const START_ATTEMPTS = 5;
const READY_TIMEOUT_MS = 10_000;

export async function startTestRegistry(options: { auth?: TestRegistryAuth } = {}): Promise<TestRegistry> {
  if (!existsSync(REGISTRY_BINARY)) {
    throw new Error(`${REGISTRY_BINARY} is missing: \`make registry-tools\` installs Debian's docker-registry`);
  }
  const directory = mkdtempSync(join(tmpdir(), "rule-server-registry-"));
  const auth = options.auth ?? "none";
  let tokenServer: RegistryTokenServer | undefined;
  try {
    let authConfig: Record<string, unknown> | undefined;
    if (auth === "basic") {
      const htpasswd = join(directory, "htpasswd");
      // bcrypt's lowest cost: the registry checks the hash on every request, at the default cost 50 ms each.
      const hash = await Bun.password.hash(TEST_USER.password, { algorithm: "bcrypt", cost: 4 });
      writeFileSync(htpasswd, `${TEST_USER.username}:${hash}\n`);
      authConfig = { htpasswd: { realm: "rule-server-test", path: htpasswd } };
    } else if (auth === "token") {
      tokenServer = await startRegistryTokenServer(directory, TEST_USER);
      authConfig = {
        token: {
          realm: tokenServer.realm,
          service: tokenServer.service,
          issuer: tokenServer.issuer,
          rootcertbundle: tokenServer.certificate,
        },
      };
    }
    const logFile = join(directory, "registry.log");
    for (let attempt = 1; ; attempt++) {
      const host = `127.0.0.1:${await freePort()}`;
      const config = join(directory, "config.yml");
      // JSON is YAML: the registry reads it as its configuration.
      writeFileSync(
        config,
        JSON.stringify({
          version: "0.1",
          log: { level: "info", accesslog: { disabled: true } },
          storage: {
            filesystem: { rootdirectory: join(directory, "data") },
            maintenance: { uploadpurging: { enabled: false } },
          },
          http: { addr: host, secret: crypto.randomUUID() },
          health: { storagedriver: { enabled: false } },
          ...(authConfig && { auth: authConfig }),
        }),
      );
      const log = openSync(logFile, "w");
      const child = Bun.spawn([REGISTRY_BINARY, "serve", config], { stdout: log, stderr: log, stdin: "ignore" });
      closeSync(log);
      const logs = (): string => readFileSync(logFile, "utf8");
      if (await ready(host, child)) {
        const stopRegistry = async (): Promise<void> => {
          child.kill();
          await child.exited;
          await tokenServer?.stop();
          rmSync(directory, { recursive: true, force: true });
        };
        return { host, credentials: TEST_USER, tokenServer, logs, stop: stopRegistry };
      }
      child.kill();
      await child.exited;
      // Another process took the port between our look and the registry's bind: try another.
      if (attempt < START_ATTEMPTS && /address already in use/.test(logs())) continue;
      throw new Error(`docker-registry did not start:\n${logs()}`);
    }
  } catch (error) {
    await tokenServer?.stop();
    rmSync(directory, { recursive: true, force: true });
    throw error;
  }
}

/** A port free a moment ago: bound on port 0, then closed. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

/** Whether the registry answers `/v2/` (any status: 401 too) before it exits or the time runs out. */
async function ready(host: string, child: Subprocess): Promise<boolean> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline && child.exitCode === null && child.signalCode === null) {
    try {
      await fetch(`http://${host}/v2/`);
      return true;
    } catch {
      await Bun.sleep(20);
    }
  }
  return false;
}
