import { existsSync, mkdtempSync, openSync, closeSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { SQL } from "bun";
import { requireTool, systemPath, systemTool } from "./system-tool.ts";

/**
 * A PostgreSQL server of a test's own, for tests that run SQL on the real thing: initdb into a fresh
 * temporary directory, postgres on 127.0.0.1 at a free port, trust authentication, durability off.
 * Every call starts its own server, so test files running in parallel do not share one.
 *
 * PostgreSQL refuses to run as root. Root runs initdb and postgres in a user namespace of their own
 * where it is uid 65534 ("nobody"): the temporary directory root created is that uid's there, and
 * the uid has a name in the password database, which initdb looks up. An ordinary user runs them as is.
 */

export interface TestPostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres; any user name is let in (trust). */
  readonly url: string;
  /** A client connected to it, closed by `stop()`. */
  readonly sql: SQL;
  /** The temporary directory holding the data directory, the socket and the server's log; removed by `stop()`. */
  readonly directory: string;
  /** Closes the client, shuts the server down and removes its directory; calling it again waits for the first call. */
  stop(): Promise<void>;
}

export type TestPostgresErrorCode =
  | "POSTGRES_MISSING"
  | "POSTGRES_USER_NAMESPACE"
  | "POSTGRES_INITDB_FAILED"
  | "POSTGRES_START_FAILED"
  | "POSTGRES_START_TIMEOUT";

export class TestPostgresError extends Error {
  override readonly name = "TestPostgresError";
  constructor(
    readonly code: TestPostgresErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Where Debian puts each major version's binaries, off PATH: /usr/lib/postgresql/<version>/bin. */
const DEBIAN_POSTGRESQL = "/usr/lib/postgresql";
/** The uid that root becomes in its user namespace: nobody, whose password entry every Debian machine has. */
const NAMESPACE_UID = 65534;
const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;
const POLL_MS = 50;
/** Starts on another free port when one was taken between asking the kernel and postgres binding it. */
const PORT_ATTEMPTS = 5;
/** The last part of the server's log that an error quotes. */
const LOG_TAIL_CHARS = 4000;

/** The bin directory of the newest PostgreSQL installed: Debian's, else one whose initdb is in PATH. */
export function postgresBinDirectory(): string {
  const versions = existsSync(DEBIAN_POSTGRESQL)
    ? readdirSync(DEBIAN_POSTGRESQL).filter(
        (version) => /^\d+(\.\d+)?$/.test(version) && existsSync(join(DEBIAN_POSTGRESQL, version, "bin", "initdb")),
      )
    : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (newest !== undefined) return join(DEBIAN_POSTGRESQL, newest, "bin");
  const initdb = systemTool("initdb");
  if (initdb && existsSync(join(dirname(initdb), "postgres"))) return dirname(initdb);
  throw new TestPostgresError(
    "POSTGRES_MISSING",
    `PostgreSQL's initdb was found neither in ${DEBIAN_POSTGRESQL}/*/bin nor in PATH: install Debian's postgresql package (\`make postgresql-tools\` or \`sudo apt-get install postgresql\`)`,
  );
}

/** `argv` as an ordinary user: as is, or for root in a user namespace where it is NAMESPACE_UID. */
function asOrdinaryUser(argv: readonly string[]): string[] {
  if (process.getuid!() !== 0) return [...argv];
  const passwd = Bun.spawnSync([systemTool("getent") ?? "getent", "passwd", String(NAMESPACE_UID)], {
    stdout: "ignore",
    stderr: "ignore",
  });
  if (passwd.exitCode !== 0) {
    throw new TestPostgresError(
      "POSTGRES_USER_NAMESPACE",
      `uid ${NAMESPACE_UID}, which root runs PostgreSQL as, has no entry in the password database, where initdb looks its name up: add one (\`sudo useradd --uid ${NAMESPACE_UID} nobody\`)`,
    );
  }
  // Without --fork unshare execs the command: the pid Bun sees is postgres's own, which signals reach.
  return [requireTool("unshare"), "--user", `--map-user=${NAMESPACE_UID}`, `--map-group=${NAMESPACE_UID}`, ...argv];
}

/** A port on 127.0.0.1 that the kernel just gave out and nobody listens on now. */
function freePort(): number {
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  return port;
}

/** Sends `signal` to the server and waits for it to exit, killing it after STOP_TIMEOUT_MS. */
async function shutDown(server: Bun.Subprocess, signal: "SIGINT" | "SIGQUIT"): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  server.kill(signal);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), STOP_TIMEOUT_MS);
  });
  const exited = await Promise.race([server.exited.then(() => true), timeout]);
  clearTimeout(timer);
  if (!exited) {
    server.kill("SIGKILL");
    await server.exited;
  }
}

/** The end of a log file, for error messages. */
function logTail(path: string): string {
  const text = existsSync(path) ? readFileSync(path, "utf8") : "";
  return text.length > LOG_TAIL_CHARS ? `...${text.slice(-LOG_TAIL_CHARS)}` : text;
}

/** A client with its user and database set as options: Bun lets PGDATABASE override the URL's. */
function client(url: string): SQL {
  return new SQL(url, { username: "postgres", database: "postgres", tls: false, connectionTimeout: 5 });
}

type Started =
  | { readonly kind: "ready"; readonly sql: SQL }
  | { readonly kind: "port-taken" }
  | { readonly kind: "exited" }
  | { readonly kind: "timeout"; readonly lastError: unknown };

/** Waits until the server at `url` answers as the one of `dataDirectory`, or `server` exits, or time runs out. */
async function waitUntilReady(server: Bun.Subprocess, url: string, dataDirectory: string): Promise<Started> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  let lastError: unknown = null;
  const exited = server.exited.then(() => "exited" as const);
  for (;;) {
    const sql = client(url);
    // Raced with the server's exit: something else holding the port may accept and never answer.
    const answer = await Promise.race([
      sql`select current_setting('data_directory') as data_directory`.then(
        ([row]) => ({ dataDirectory: row.data_directory as string }),
        (error: unknown) => ({ error }),
      ),
      exited,
    ]);
    if (answer !== "exited" && "dataDirectory" in answer && answer.dataDirectory === dataDirectory) {
      return { kind: "ready", sql };
    }
    await sql.close({ timeout: 0 });
    if (answer === "exited") return { kind: "exited" };
    // Another test's server took the port first; ours fails to bind it and exits.
    if ("dataDirectory" in answer) return { kind: "port-taken" };
    lastError = answer.error;
    if (Date.now() > deadline) return { kind: "timeout", lastError };
    await Bun.sleep(POLL_MS);
  }
}

/**
 * `argv` with the parent death signal set to SIGQUIT, PostgreSQL's immediate shutdown: a server
 * whose test process dies, even killed, shuts down with it. An exit listener would not do: bun test
 * runs none. setpriv is util-linux's, like unshare; without it the server merely outlives a crash.
 */
function diesWithTestProcess(argv: readonly string[]): string[] {
  const setpriv = systemTool("setpriv");
  return setpriv ? [setpriv, "--pdeathsig=QUIT", ...argv] : [...argv];
}

/** Starts a server and connects to it; see the file's comment. */
export async function startTestPostgres(): Promise<TestPostgres> {
  const bin = postgresBinDirectory();
  const directory = mkdtempSync(join(tmpdir(), "rule-server-postgres-"));
  const dataDirectory = join(directory, "data");
  const logFile = join(directory, "postgres.log");
  // No PG* variables of the machine's; the server's time zone is UTC (initdb writes TZ's into its configuration).
  const env = { PATH: systemPath(), LC_ALL: "C", TZ: "UTC" };
  try {
    const initdbCommand = asOrdinaryUser([
      join(bin, "initdb"),
      "-D",
      dataDirectory,
      "-U",
      "postgres",
      "--auth=trust",
      "--encoding=UTF8",
      "--locale=C",
      "--no-sync",
      "--no-instructions",
    ]);
    const initdb = Bun.spawn(initdbCommand, { env, stdout: "pipe", stderr: "pipe" });
    const [initdbOut, initdbErr, initdbStatus] = await Promise.all([
      new Response(initdb.stdout).text(),
      new Response(initdb.stderr).text(),
      initdb.exited,
    ]);
    if (initdbStatus !== 0) {
      throw new TestPostgresError(
        "POSTGRES_INITDB_FAILED",
        `\`${initdbCommand.join(" ")}\` failed (exit status ${initdbStatus}): ${`${initdbErr}\n${initdbOut}`.trim()}`,
      );
    }
    for (let attempt = 1; ; attempt++) {
      const port = freePort();
      const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
      const serverCommand = asOrdinaryUser(
        diesWithTestProcess([
          join(bin, "postgres"),
          "-D",
          dataDirectory,
          "-c",
          "listen_addresses=127.0.0.1",
          "-p",
          String(port),
          "-c",
          `unix_socket_directories=${directory}`,
          "-c",
          "fsync=off",
          "-c",
          "full_page_writes=off",
          "-c",
          "synchronous_commit=off",
        ]),
      );
      // The log goes to a file, which never fills up and blocks the server as an unread pipe would;
      // each attempt's replaces the last's.
      const log = openSync(logFile, "w");
      const server = Bun.spawn(serverCommand, { env, stdin: "ignore", stdout: log, stderr: log });
      closeSync(log);
      const started = await waitUntilReady(server, url, dataDirectory);
      if (started.kind === "ready") return running(url, started.sql, server, directory);
      // SIGQUIT, immediate shutdown, rather than SIGKILL: it ends the server's children too, whose
      // shared memory would keep the next attempt from starting on the same data directory.
      await shutDown(server, "SIGQUIT");
      const taken = started.kind === "port-taken" || logTail(logFile).includes("could not bind");
      if (taken && attempt < PORT_ATTEMPTS) continue;
      if (started.kind === "timeout") {
        throw new TestPostgresError(
          "POSTGRES_START_TIMEOUT",
          `\`${serverCommand.join(" ")}\` did not accept connections within ${START_TIMEOUT_MS / 1000} s (last: ${String(started.lastError)}); its log:\n${logTail(logFile)}`,
        );
      }
      throw new TestPostgresError(
        "POSTGRES_START_FAILED",
        `\`${serverCommand.join(" ")}\` ${started.kind === "exited" ? `exited (status ${server.exitCode ?? server.signalCode})` : `found port ${port} taken ${attempt} times`}; its log:\n${logTail(logFile)}`,
      );
    }
  } catch (error) {
    rmSync(directory, { recursive: true, force: true });
    throw error;
  }
}

/** The handle of a server that answers at `url`. */
function running(url: string, sql: SQL, server: Bun.Subprocess, directory: string): TestPostgres {
  let stopping: Promise<void> | undefined;
  async function stop(): Promise<void> {
    await sql.close({ timeout: 0 });
    // SIGINT is PostgreSQL's fast shutdown: sessions are ended, then a checkpoint, then exit.
    await shutDown(server, "SIGINT");
    // Retries: after SIGKILL a backend may still create a file for a moment.
    rmSync(directory, { recursive: true, force: true, maxRetries: 5 });
  }
  return {
    url,
    sql,
    directory,
    stop: () => {
      stopping ??= stop();
      return stopping;
    },
  };
}
