import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { parse } from "yaml";
import { preferredCoding } from "../../../src/server/http/content-coding.ts";
import { rulesDirectory } from "../../support/rules-directory.ts";
import { PROJECT_ROOT } from "../../support/run-cli.ts";
import { slowBundle } from "../../support/slow-bundle.ts";
import { serverEnvironment, startServer, TOKEN, type ServerProcess } from "../../support/server-process.ts";

/** Compressed manifests, bundles, rule details and lists; /openapi.json. */
const auth = { Authorization: `Bearer ${TOKEN}` };
const SHOP = "shop.orders.order";
let server: ServerProcess;
let rules: ReturnType<typeof rulesDirectory>;

beforeAll(async () => {
  // Enough rulesets for the list to pass the compression threshold.
  rules = rulesDirectory(
    Object.fromEntries(
      ["a", "b", "c"].map((suffix) => [`shop.copy.${suffix}.bundle.json`, slowBundle(`shop.copy.${suffix}`)]),
    ),
  );
  server = await startServer(serverEnvironment(rules.path));
});
afterAll(async () => {
  await server.kill();
  rules.remove();
});

/** The raw answer: fetch is told not to decompress, so the test sees the bytes on the wire. */
async function raw(
  path: string,
  acceptEncoding: string | undefined,
  headers: Record<string, string> = {},
): Promise<{ response: Response; bytes: Uint8Array }> {
  const all: Record<string, string> = { ...headers };
  if (acceptEncoding !== undefined) all["Accept-Encoding"] = acceptEncoding;
  const response = await fetch(`${server.url}${path}`, { headers: all, decompress: false } as RequestInit);
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
}
const decode = (coding: string | null, bytes: Uint8Array): string =>
  new TextDecoder().decode(
    coding === "br" ? brotliDecompressSync(bytes) : coding === "gzip" ? gunzipSync(bytes) : bytes,
  );

describe("content codings", () => {
  const paths: [string, Record<string, string>][] = [
    [`/rulesets/${SHOP}/manifest`, {}],
    [`/rulesets/${SHOP}/manifest?channel=server`, auth],
    [`/rulesets/${SHOP}/bundle`, auth],
    ["/rulesets", {}],
    ["/openapi.json", {}],
  ];

  test("br and gzip bodies decompress to the identity body, with the same ETag and Vary: Accept-Encoding", async () => {
    for (const [path, headers] of paths) {
      const identity = await raw(path, "identity", headers);
      expect(identity.response.headers.get("content-encoding"), path).toBeNull();
      expect(identity.bytes.length, path).toBeGreaterThan(1024);
      const text = new TextDecoder().decode(identity.bytes);
      for (const coding of ["br", "gzip"]) {
        const encoded = await raw(path, coding, headers);
        expect(encoded.response.status).toBe(200);
        expect(encoded.response.headers.get("content-encoding"), `${path} ${coding}`).toBe(coding);
        expect(encoded.response.headers.get("vary"), path).toBe("Accept-Encoding");
        expect(encoded.response.headers.get("etag")).toBe(identity.response.headers.get("etag"));
        expect(encoded.bytes.length, `${path} ${coding}`).toBeLessThan(identity.bytes.length / 2);
        expect(decode(coding, encoded.bytes)).toBe(text);
      }
    }
  });

  test("q-values are honoured: br first, q=0 refuses, identity alone gets none", async () => {
    const path = `/rulesets/${SHOP}/manifest`;
    const codingFor = async (header: string | undefined): Promise<string | null> =>
      (await raw(path, header)).response.headers.get("content-encoding");
    expect(await codingFor("gzip, br")).toBe("br");
    expect(await codingFor("gzip;q=1, br;q=0")).toBe("gzip");
    expect(await codingFor("br;q=0.5, gzip;q=0.8")).toBe("gzip");
    expect(await codingFor("identity")).toBeNull();
    expect(await codingFor("*")).toBe("br");
    expect(await codingFor("*;q=0.5, br;q=0")).toBe("gzip");
    expect(await codingFor("br;q=0, gzip;q=0")).toBeNull();
    expect(await codingFor("gzip;q=0.4, identity;q=0.9")).toBeNull();
    expect(await codingFor(undefined)).toBeNull();
  });

  test("304 is unchanged by the coding: same ETag and Cache-Control, Vary, no body", async () => {
    const first = await raw(`/rulesets/${SHOP}/manifest`, "br");
    const etag = first.response.headers.get("etag")!;
    const again = await raw(`/rulesets/${SHOP}/manifest`, "br", { "If-None-Match": etag });
    expect(again.response.status).toBe(304);
    expect(again.response.headers.get("etag")).toBe(etag);
    expect(again.response.headers.get("cache-control")).toBe(first.response.headers.get("cache-control"));
    expect(again.response.headers.get("vary")).toBe("Accept-Encoding");
    expect(again.bytes.length).toBe(0);
  });

  test("small bodies stay identity: a rule detail under 1024 bytes", async () => {
    const detail = await raw(`/rulesets/${SHOP}/rules/order.quantity.max`, "br");
    expect(detail.bytes.length).toBeLessThan(1024);
    expect(detail.response.headers.get("content-encoding")).toBeNull();
    expect(detail.response.headers.get("vary")).toBe("Accept-Encoding");
  });

  test("negotiation ignores malformed weights and case", () => {
    expect(preferredCoding("GZIP")).toBe("gzip");
    expect(preferredCoding("br;q=2, gzip")).toBe("gzip");
    expect(preferredCoding("x-gzip")).toBe("gzip");
    expect(preferredCoding("")).toBe("identity");
  });
});

describe("GET /openapi.json", () => {
  test("is public and equals openapi.yaml", async () => {
    const response = await fetch(`${server.url}/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await response.json()).toEqual(parse(readFileSync(join(PROJECT_ROOT, "openapi.yaml"), "utf8")));
  });
});
