import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { rulesDirectory } from "./rules-directory.ts";
import { serverEnvironment, startServer, TOKEN } from "./server-process.ts";
import { makeTestCertificates } from "./test-certificates.ts";
import { ALLOWED_ORDER } from "./allowed-order.ts";

/**
 * A server over HTTPS answering evaluations from several clients while its certificate changes
 * and SIGHUP arrives again and again: how many requests were answered, and how each failure
 * failed. `freshConnections`: every request on a new connection (a TLS handshake each), else
 * clients keep their connections as pooling clients do. Run directly (as the namespace test does),
 * it prints the figures as JSON.
 */
export interface RotationFigures {
  readonly answered: number;
  readonly failed: number;
  readonly failures: readonly string[];
  readonly rotations: number;
}

export async function rotateUnderLoad(options: {
  readonly freshConnections: boolean;
  readonly processes?: number;
  readonly rotations?: number;
}): Promise<RotationFigures> {
  const certificates = makeTestCertificates();
  certificates.issue("server-next", { ca: "ca", server: true, commonName: "rule-server-next" });
  const served = { cert: join(certificates.dir, "served.crt"), key: join(certificates.dir, "served.key") };
  const serve = (name: string): void => {
    copyFileSync(certificates.cert(name), served.cert);
    copyFileSync(certificates.key(name), served.key);
  };
  serve("server");
  const rules = rulesDirectory();
  const server = await startServer(
    serverEnvironment(rules.path, {
      RULE_SERVER_TLS_CERT: served.cert,
      RULE_SERVER_TLS_KEY: served.key,
      RULE_SERVER_PROCESSES: String(options.processes ?? 1),
    }),
  );
  const ca = certificates.text(certificates.cert("ca"));
  const body = JSON.stringify(ALLOWED_ORDER);
  let answered = 0;
  const failures: string[] = [];
  let running = true;
  const client = async (): Promise<void> => {
    while (running) {
      try {
        const response = await fetch(`https://127.0.0.1:${server.port}/evaluations`, {
          method: "POST",
          headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" },
          body,
          keepalive: !options.freshConnections,
          tls: { ca },
        } as RequestInit);
        const text = await response.text();
        if (response.status === 200 && text.includes('"decision"')) answered++;
        else failures.push(`status ${response.status}`);
      } catch (error) {
        failures.push(error instanceof Error ? error.message.slice(0, 120) : String(error));
      }
    }
  };
  const rotations = options.rotations ?? 10;
  try {
    const clients = Array.from({ length: 8 }, client);
    for (let rotation = 1; rotation <= rotations; rotation++) {
      await Bun.sleep(150);
      serve(rotation % 2 === 1 ? "server-next" : "server");
      server.signal("SIGHUP");
      await server.waitForLog(
        (line) => line.msg === "TLS certificates reloaded" && countOf(server.logs(), line.msg) >= rotation,
      );
    }
    await Bun.sleep(150);
    running = false;
    await Promise.all(clients);
  } finally {
    running = false;
    await server.kill();
    rules.remove();
    certificates.remove();
  }
  return { answered, failed: failures.length, failures: [...new Set(failures)], rotations };
}

function countOf(lines: readonly Record<string, unknown>[], msg: unknown): number {
  return lines.filter((line) => line.msg === msg).length;
}

if (import.meta.main) {
  const figures = await rotateUnderLoad({
    freshConnections: process.argv.includes("--fresh-connections"),
    processes: Number(process.env.ROTATION_PROCESSES ?? 1),
  });
  console.log(JSON.stringify(figures));
}
