import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { rulesDirectory } from "../../support/rules-directory.ts";
import { PROJECT_ROOT } from "../../support/run-cli.ts";
import { rotateUnderLoad } from "../../support/rotation-under-load.ts";
import { serverEnvironment, startServer } from "../../support/server-process.ts";
import { servedCertificate } from "../../support/https-client.ts";
import { makeTestCertificates, type TestCertificates } from "../../support/test-certificates.ts";

/** SIGHUP reads the TLS files again: new certificates for new connections, bad files keep the old ones. */
let certificates: TestCertificates;
const rules = rulesDirectory();
let served: { cert: string; key: string };
beforeAll(() => {
  certificates = makeTestCertificates();
  certificates.issue("server-next", { ca: "ca", server: true, commonName: "rule-server-next" });
  served = { cert: join(certificates.dir, "served.crt"), key: join(certificates.dir, "served.key") };
});
afterAll(() => {
  certificates.remove();
  rules.remove();
});

function serve(name: string): void {
  copyFileSync(certificates.cert(name), served.cert);
  copyFileSync(certificates.key(name), served.key);
}

const reloadsOf = (lines: Record<string, unknown>[], msg: string) => lines.filter((line) => line.msg === msg).length;

describe("certificates read again on SIGHUP", () => {
  for (const processes of ["1", "2"])
    test(`new files serve new connections, bad and unchanged ones change nothing (RULE_SERVER_PROCESSES=${processes})`, async () => {
      serve("server");
      const server = await startServer(
        serverEnvironment(rules.path, {
          RULE_SERVER_TLS_CERT: served.cert,
          RULE_SERVER_TLS_KEY: served.key,
          RULE_SERVER_PROCESSES: processes,
        }),
      );
      try {
        expect((await servedCertificate(server.port, certificates)).subject).toBe("rule-server");
        serve("server-next");
        server.signal("SIGHUP");
        const reloaded = await server.waitForLog((line) => line.msg === "TLS certificates reloaded");
        // Whether the kernel moves queued connections to the new listener (Linux: net.ipv4.tcp_migrate_req).
        expect(reloaded).toMatchObject({
          level: "info",
          notAfter: expect.any(String),
          queuedConnectionsMoved: expect.any(Boolean),
        });
        // The old listener answers kept connections until it is quiet, then stops; from then on
        // every process's listener has the new certificate, for each of several new connections.
        await Bun.sleep(2500);
        for (let connection = 0; connection < 6; connection++)
          expect(await servedCertificate(server.port, certificates)).toEqual({
            handshake: true,
            subject: "rule-server-next",
          });

        // A certificate file cut short: the warning says why, the certificate served stays.
        writeFileSync(served.cert, "-----BEGIN CERTIFICATE-----\nMIIB\n");
        server.signal("SIGHUP");
        const warning = await server.waitForLog(
          (line) => line.msg === "the TLS files did not load; the certificates being served stay",
        );
        expect(warning).toMatchObject({
          level: "warn",
          problems: [expect.stringContaining("holds no PEM certificate")],
        });
        expect(await servedCertificate(server.port, certificates)).toEqual({
          handshake: true,
          subject: "rule-server-next",
        });

        // The same files again: nothing is rotated.
        serve("server-next");
        const reloads = reloadsOf(server.logs(), "rules reloaded");
        server.signal("SIGHUP");
        await server.waitForLog(() => reloadsOf(server.logs(), "rules reloaded") > reloads);
        expect(reloadsOf(server.logs(), "TLS certificates reloaded")).toBe(1);
      } finally {
        await server.kill();
      }
    }, 30_000);

  test("under load on kept connections, no request fails while certificates rotate ten times", async () => {
    const figures = await rotateUnderLoad({ freshConnections: false });
    expect(figures.failures).toEqual([]);
    expect(figures.answered).toBeGreaterThan(100);
  }, 60_000);

  test("with two processes too", async () => {
    const figures = await rotateUnderLoad({ freshConnections: false, processes: 2 });
    expect(figures.failures).toEqual([]);
    expect(figures.answered).toBeGreaterThan(100);
  }, 60_000);

  // Each request a new handshake: connections the kernel queued on the listener that closes survive
  // only where it moves them (net.ipv4.tcp_migrate_req=1, README "Securing the API"). Set in a network
  // namespace of an unprivileged user namespace, as an operator sets it on the host.
  test("on fresh connections, with the kernel moving queued connections, no request fails", async () => {
    const script = join(PROJECT_ROOT, "test", "support", "rotation-under-load.ts");
    const child = Bun.spawn(
      [
        "unshare",
        "--user",
        "--map-root-user",
        "--net",
        "sh",
        "-c",
        'PATH="$PATH:/usr/sbin:/sbin"; ip link set lo up && echo 1 > /proc/sys/net/ipv4/tcp_migrate_req && exec "$0" "$1" --fresh-connections',
        process.execPath,
        script,
      ],
      { cwd: PROJECT_ROOT, stdout: "pipe", stderr: "pipe" },
    );
    const [output, errors, status] = await Promise.all([
      new Response(child.stdout).text(),
      new Response(child.stderr).text(),
      child.exited,
    ]);
    expect({ status, errors: status === 0 ? "" : errors }).toEqual({ status: 0, errors: "" });
    const figures = JSON.parse(output.trim().split("\n").at(-1)!) as { failures: string[]; answered: number };
    expect(figures.failures).toEqual([]);
    expect(figures.answered).toBeGreaterThan(100);
  }, 60_000);
});
