import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ServerReleaseFetcher } from "../../src/sources/server-release-fetcher.ts";

/**
 * Another rule-server as a source, against a stand-in that counts what it is asked: an unchanged
 * list costs one request; a changed one asks each bundle with the ETag it was served with, and a
 * 304 keeps the bytes held; the signature header is written beside its bundle.
 */
const rulesets = new Map([
  ["a", { version: "1.0.0", checksum: "sha256:aa", body: '{"id":"a"}', signature: "jws-of-a" }],
  ["b", { version: "1.0.0", checksum: "sha256:bb", body: '{"id":"b"}', signature: undefined as string | undefined }],
]);
const asked: string[] = [];
let server: ReturnType<typeof Bun.serve>;

beforeAll(() => {
  server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(request) {
      const path = new URL(request.url).pathname;
      const match = request.headers.get("If-None-Match");
      asked.push(
        `${path}${match === null ? "" : ` ${match}`}${request.headers.get("Authorization") === "Bearer t" ? "" : " (no token)"}`,
      );
      if (path === "/rulesets")
        return Response.json({
          rulesets: [...rulesets].map(([id, { version, checksum }]) => ({ id, version, checksum })),
        });
      const id = /^\/rulesets\/([^/]+)\/bundle$/.exec(path)?.[1];
      const ruleset = id === undefined ? undefined : rulesets.get(id);
      if (ruleset === undefined) return new Response("{}", { status: 404 });
      const etag = `"${ruleset.checksum}-bundle"`;
      if (match === etag) return new Response(null, { status: 304, headers: { ETag: etag } });
      return new Response(ruleset.body, {
        headers: {
          ETag: etag,
          ...(ruleset.signature === undefined ? {} : { "Rule-Cascade-Signature": ruleset.signature }),
        },
      });
    },
  });
});
afterAll(() => server.stop(true));

describe("ServerReleaseFetcher", () => {
  test("a first fetch takes the list and every bundle, with the signatures there are", async () => {
    const fetcher = new ServerReleaseFetcher(`http://127.0.0.1:${server.port}/`, { token: "t" });
    const first = await fetcher.fetch(undefined);
    if (first.unchanged) throw new Error("unchanged");
    expect(first.files.map((file) => [file.name, new TextDecoder().decode(file.bytes)])).toEqual([
      ["a.bundle.json", '{"id":"a"}'],
      ["a.bundle.json.sig", "jws-of-a\n"],
      ["b.bundle.json", '{"id":"b"}'],
    ]);
    asked.length = 0;
    expect(await fetcher.fetch(first.digest)).toEqual({ unchanged: true, digest: first.digest });
    expect(asked).toEqual(["/rulesets"]);

    rulesets.set("b", { version: "1.1.0", checksum: "sha256:b2", body: '{"id":"b","v":2}', signature: undefined });
    asked.length = 0;
    const second = await fetcher.fetch(first.digest);
    if (second.unchanged) throw new Error("unchanged");
    expect(second.digest).not.toBe(first.digest);
    expect(asked).toEqual([
      "/rulesets",
      '/rulesets/a/bundle "sha256:aa-bundle"',
      '/rulesets/b/bundle "sha256:bb-bundle"',
    ]);
    expect(second.files.map((file) => new TextDecoder().decode(file.bytes))).toEqual([
      '{"id":"a"}',
      "jws-of-a\n",
      '{"id":"b","v":2}',
    ]);
  });

  test("a refusal names the status; a server that is not there, that it cannot be reached", async () => {
    const wrong = new ServerReleaseFetcher(`http://127.0.0.1:${server.port}/nothing-here`);
    await expect(wrong.fetch(undefined)).rejects.toMatchObject({ code: "SOURCE_PULL_FAILED", fault: "404" });
    const closed = Bun.serve({ port: 0, fetch: () => new Response() });
    const port = closed.port;
    closed.stop(true);
    await expect(new ServerReleaseFetcher(`http://127.0.0.1:${port}`).fetch(undefined)).rejects.toMatchObject({
      code: "SOURCE_PULL_FAILED",
      fault: "UNREACHABLE",
    });
  });

  test("a list that is not a list of rulesets is refused", async () => {
    const odd = Bun.serve({ port: 0, fetch: () => Response.json({ rulesets: [{ id: "x" }] }) });
    try {
      await expect(new ServerReleaseFetcher(`http://127.0.0.1:${odd.port}`).fetch(undefined)).rejects.toThrow(
        "a listed ruleset lacks its id, version or checksum",
      );
    } finally {
      odd.stop(true);
    }
  });
});
