import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, rmSync } from "node:fs";
import { SQL } from "bun";
import { startTestPostgres, type TestPostgres } from "./test-postgres.ts";

/** What a process writes to `stream` up to its first newline, or until it closes. */
async function firstLine(stream: ReadableStream<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of stream) {
    text += decoder.decode(chunk, { stream: true });
    if (text.includes("\n")) break;
  }
  return text;
}

/** Whether a TCP connection to 127.0.0.1:port is accepted. */
async function accepts(port: number): Promise<boolean> {
  try {
    const socket = await Bun.connect({ hostname: "127.0.0.1", port, socket: { data() {} } });
    socket.end();
    return true;
  } catch {
    return false;
  }
}

interface OtherProcess {
  readonly process: Bun.Subprocess;
  /** The url and directory of the server it started, once it has. */
  readonly server: Promise<{ url: string; directory: string }>;
}

/** Another Bun process that starts a server, prints where, and runs until it is killed. */
function startInOtherProcess(): OtherProcess {
  const script = `
    import { startTestPostgres } from ${JSON.stringify(`${import.meta.dir}/test-postgres.ts`)};
    const { url, directory } = await startTestPostgres();
    console.log(JSON.stringify({ url, directory }));
    setInterval(() => {}, 1000);
  `;
  const child = Bun.spawn([process.execPath, "--eval", script], { stdout: "pipe", stderr: "pipe" });
  const server = firstLine(child.stdout).then(async (text) => {
    const [line] = text.split("\n");
    if (!line) throw new Error(`the other process printed nothing: ${await new Response(child.stderr).text()}`);
    return JSON.parse(line) as { url: string; directory: string };
  });
  return { process: child, server };
}

describe("a test's own PostgreSQL", () => {
  let postgres: TestPostgres;
  let other: OtherProcess;
  beforeAll(async () => {
    // Started together to keep the file short: each start is mostly initdb, about a second.
    other = startInOtherProcess();
    postgres = await startTestPostgres();
  });
  afterAll(async () => {
    other.process.kill("SIGKILL");
    // The killed process cannot remove its server's directory.
    await other.server.then(({ directory }) => rmSync(directory, { recursive: true, force: true })).catch(() => {});
    await postgres?.stop();
  });

  test("answers queries on 127.0.0.1 from its directory", async () => {
    const url = new URL(postgres.url);
    expect(url.hostname).toBe("127.0.0.1");
    expect(await postgres.sql`select 1 as one`).toEqual([{ one: 1 }]);
    expect(existsSync(`${postgres.directory}/data/PG_VERSION`)).toBe(true);
  });

  test("compares with null as PostgreSQL does: unknown, not false", async () => {
    const [row] = await postgres.sql`select null::int < 3 as compared, null::int = null::int as equal`;
    expect(row).toEqual({ compared: null, equal: null });
  });

  test("passes the parameters of sql.unsafe as $1, $2", async () => {
    const [row] = await postgres.sql.unsafe("select $1::numeric < $2::numeric as less", ["10.5", "9"]);
    expect(row).toEqual({ less: false });
    const [swapped] = await postgres.sql.unsafe("select $1::numeric < $2::numeric as less", ["9", "10.5"]);
    expect(swapped).toEqual({ less: true });
  });

  test("reads a jsonb column's fields as text with ->>", async () => {
    await postgres.sql`create table documents (id int primary key, body jsonb not null)`;
    // Bun encodes the value of a jsonb parameter as JSON itself: an object, not JSON text.
    const body = { customer: { tier: "gold" }, total: 10.5 };
    await postgres.sql`insert into documents values (1, ${body}::jsonb)`;
    const [row] = await postgres.sql`
      select body->>'total' as total, body->'customer'->>'tier' as tier, body->>'missing' as missing
      from documents where id = 1`;
    expect(row).toEqual({ total: "10.5", tier: "gold", missing: null });
  });

  test("takes JSON text for a jsonb parameter as a JSON string, so documents are passed as objects", async () => {
    const [row] = await postgres.sql.unsafe("select jsonb_typeof($1::jsonb) as kind, $1::jsonb->>'a' as a", [
      JSON.stringify({ a: 1 }),
    ]);
    expect(row).toEqual({ kind: "string", a: null });
  });

  test("runs in UTF-8 with the C collation and the UTC time zone", async () => {
    const [row] = await postgres.sql`
      select current_setting('server_encoding') as encoding, current_setting('lc_collate') as collate,
             current_setting('TimeZone') as zone`;
    expect(row).toEqual({ encoding: "UTF8", collate: "C", zone: "UTC" });
  });

  test("runs beside a server of another process, which shuts down when that process is killed", async () => {
    const theirs = await other.server;
    expect(theirs.url).not.toBe(postgres.url);
    expect(theirs.directory).not.toBe(postgres.directory);
    await postgres.sql`create table only_in_ours (x int)`;
    const client = new SQL(theirs.url, { database: "postgres" });
    try {
      expect(await client`select to_regclass('only_in_ours') as found`).toEqual([{ found: null }]);
    } finally {
      await client.close();
    }
    other.process.kill("SIGKILL");
    await other.process.exited;
    const port = Number(new URL(theirs.url).port);
    const deadline = Date.now() + 10_000;
    while ((await accepts(port)) && Date.now() < deadline) await Bun.sleep(20);
    expect(await accepts(port)).toBe(false);
  });

  test("stop() shuts the server down and removes its directory, and may be called again", async () => {
    const port = Number(new URL(postgres.url).port);
    await postgres.stop();
    expect(await accepts(port)).toBe(false);
    expect(existsSync(postgres.directory)).toBe(false);
    await postgres.stop();
  });
});
