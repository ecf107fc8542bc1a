import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rulesDirectory } from "../support/rules-directory.ts";
import { serverEnvironment, startServer, TOKEN, type ServerProcess } from "../support/server-process.ts";

/** Cache-Control of client manifests and public rule details for every cache mode. */
const policy = `default: { mode: revalidate }
rulesets:
  shop.orders.order: { mode: ttl, maxAge: 300, staleWhileRevalidate: 60, staleIfError: 86400 }
  library.base: { mode: permanent }
  library.branch.loans: { mode: ttl, maxAge: 30 }
`;
let server: ServerProcess;
const rules = rulesDirectory({ "cache-policy.yaml": policy });
let checksums: Record<string, string> = {};

beforeAll(async () => {
  server = await startServer(serverEnvironment(rules.path));
  const list = (await (await fetch(`${server.url}/rulesets`)).json()) as {
    rulesets: { id: string; checksum: string }[];
  };
  checksums = Object.fromEntries(list.rulesets.map((entry) => [entry.id, entry.checksum]));
});
afterAll(async () => {
  await server.kill();
  rules.remove();
});

const cacheControl = async (path: string, headers: Record<string, string> = {}): Promise<string | null> =>
  (await fetch(`${server.url}${path}`, { headers })).headers.get("cache-control");

describe("client manifests", () => {
  test("revalidate (the default rule) is the same with or without a checksum", async () => {
    expect(await cacheControl("/rulesets/shop.orders.bundled/manifest")).toBe("public, max-age=0, must-revalidate");
    expect(
      await cacheControl(`/rulesets/shop.orders.bundled/manifest?checksum=${checksums["shop.orders.bundled"]}`),
    ).toBe("public, max-age=0, must-revalidate");
  });
  test("ttl with stale-while-revalidate and stale-if-error", async () => {
    expect(await cacheControl("/rulesets/shop.orders.order/manifest")).toBe(
      "public, max-age=300, stale-while-revalidate=60, stale-if-error=86400",
    );
    expect(await cacheControl("/rulesets/library.branch.loans/manifest")).toBe("public, max-age=30");
  });
  test("permanent: revalidate without a checksum, immutable for a year with the checksum being served", async () => {
    expect(await cacheControl("/rulesets/library.base/manifest")).toBe("public, max-age=0, must-revalidate");
    expect(await cacheControl(`/rulesets/library.base/manifest?checksum=${checksums["library.base"]}`)).toBe(
      "public, max-age=31536000, immutable",
    );
  });
  test("the 409 of a stale checksum is no-store in every mode", async () => {
    const stale = `sha256:${"1".repeat(64)}`;
    for (const id of ["library.base", "shop.orders.order", "shop.orders.bundled"])
      expect(await cacheControl(`/rulesets/${id}/manifest?checksum=${stale}`)).toBe("no-store");
  });
  test("a 304 carries the Cache-Control the 200 would", async () => {
    const response = await fetch(`${server.url}/rulesets/shop.orders.order/manifest`, {
      headers: { "If-None-Match": "*" },
    });
    expect(response.status).toBe(304);
    expect(response.headers.get("cache-control")).toBe(
      "public, max-age=300, stale-while-revalidate=60, stale-if-error=86400",
    );
  });
});

describe("private responses ignore the policy", () => {
  const auth = { Authorization: `Bearer ${TOKEN}` };
  test("server manifests, bundles and server-only rules are private, no-cache", async () => {
    expect(await cacheControl("/rulesets/shop.orders.order/manifest?channel=server", auth)).toBe("private, no-cache");
    expect(await cacheControl("/rulesets/library.base/bundle", auth)).toBe("private, no-cache");
    expect(await cacheControl("/rulesets/shop.orders.order/rules/order.created.notify", auth)).toBe(
      "private, no-cache",
    );
  });
  test("public rule details carry the client manifest's Cache-Control", async () =>
    expect(await cacheControl("/rulesets/shop.orders.order/rules/order.quantity.max")).toBe(
      "public, max-age=300, stale-while-revalidate=60, stale-if-error=86400",
    ));
});
