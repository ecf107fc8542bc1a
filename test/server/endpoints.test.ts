import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { assertConformsToOpenApi } from "../support/openapi-conformance.ts";
import { requestOnNewConnection } from "../support/server-processes.ts";
import { rulesDirectory } from "../support/rules-directory.ts";
import { serverEnvironment, startServer, TOKEN, type ServerProcess } from "../support/server-process.ts";

/**
 * Every endpoint of SERVER.md and DECISIONS.md against a real server process with a token:
 * statuses, order of checks, ETags and conditional requests, Cache-Control, CORS, HEAD, 405.
 * Every response is also checked against the OpenAPI description (openapi.yaml).
 */
let server: ServerProcess;
let rules: ReturnType<typeof rulesDirectory>;
const auth = { Authorization: `Bearer ${TOKEN}` };
const json = { ...auth, "Content-Type": "application/json" };
const SHOP = "shop.orders.order";
const BUNDLED = "shop.orders.bundled";
let shopChecksum = "";

beforeAll(async () => {
  rules = rulesDirectory();
  server = await startServer(serverEnvironment(rules.path));
  shopChecksum = (
    (await (await fetch(`${server.url}/rulesets`)).json()) as { rulesets: { id: string; checksum: string }[] }
  ).rulesets.find((r) => r.id === SHOP)!.checksum;
});
afterAll(async () => {
  await server.kill();
  rules.remove();
});

/** Every real response is checked against openapi.yaml before a test looks at it. */
async function conforming(method: string, path: string, response: Response): Promise<Response> {
  const text = await response.clone().text();
  const contentType = response.headers.get("content-type");
  assertConformsToOpenApi(
    method,
    path.split("?")[0]!,
    response.status,
    contentType,
    text === "" ? undefined : JSON.parse(text),
  );
  return response;
}
const get = async (path: string, headers: Record<string, string> = {}, method = "GET"): Promise<Response> =>
  conforming(method, path, await fetch(`${server.url}${path}`, { method, headers }));
const evaluate = async (body: unknown, headers: Record<string, string> = json): Promise<Response> =>
  conforming(
    "POST",
    "/evaluations",
    await fetch(`${server.url}/evaluations`, {
      method: "POST",
      headers,
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
  );
const goodOrder = {
  ruleset: SHOP,
  entity: "Order",
  operation: "create",
  data: { quantity: 3, unitPrice: 0.1, customer: { email: "a@b.c" } },
};

describe("health and readiness", () => {
  test("GET /healthz answers ok without a token", async () => {
    const response = await get("/healthz");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
    expect(response.headers.get("cache-control")).toBe("no-store");
  });
  test("GET /readyz reports ready, loadedAt and the number of rulesets", async () => {
    const response = await get("/readyz");
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = (await response.json()) as { status: string; loadedAt: string; rulesets: number };
    expect(body.status).toBe("ready");
    expect(body.rulesets).toBe(4);
    expect(new Date(body.loadedAt).toISOString()).toBe(body.loadedAt);
  });
});

describe("GET /rulesets", () => {
  test("lists every ruleset sorted by id, public, with CORS", async () => {
    const response = await get("/rulesets");
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("cache-control")).toBe("no-cache");
    const { rulesets } = (await response.json()) as { rulesets: Record<string, unknown>[] };
    expect(rulesets.map((r) => r.id)).toEqual(["library.base", "library.branch.loans", BUNDLED, SHOP]);
  });
  test("rulesets from sources carry title, scope and status; from bundles only id, version and checksum", async () => {
    const { rulesets } = (await (await get("/rulesets")).json()) as { rulesets: Record<string, unknown>[] };
    expect(Object.keys(rulesets.find((r) => r.id === BUNDLED)!).sort()).toEqual(["checksum", "id", "version"]);
    const shop = rulesets.find((r) => r.id === SHOP)!;
    expect(shop).toMatchObject({
      title: "Order rules (local sample)",
      status: "draft",
      scope: [
        { level: "organization", id: "shop" },
        { level: "application", id: "orders" },
      ],
    });
    expect(shop.checksum).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
  test("a scope filter matches rulesets whose scope begins with it; bundles never match", async () => {
    const ids = async (scope: string): Promise<unknown> =>
      (
        (await (await get(`/rulesets?scope=${encodeURIComponent(scope)}`)).json()) as { rulesets: { id: string }[] }
      ).rulesets.map((r) => r.id);
    expect(await ids("shop")).toEqual([SHOP]);
    expect(await ids("organization:shop/application:orders")).toEqual([SHOP]);
    expect(await ids("application:shop")).toEqual([]);
  });
  test("an invalid scope is 400", async () => expect((await get("/rulesets?scope=Not%20Valid")).status).toBe(400));
});

describe("GET /rulesets/{id}/manifest", () => {
  test("the client manifest is the default, public, with ETag, Cache-Control and CORS", async () => {
    const response = await get(`/rulesets/${SHOP}/manifest`);
    expect(response.status).toBe(200);
    expect(response.headers.get("etag")).toBe(`"${shopChecksum}-client"`);
    expect(response.headers.get("cache-control")).toBe("public, max-age=0, must-revalidate");
    expect(response.headers.get("access-control-expose-headers")).toBe("ETag");
    const manifest = (await response.json()) as { channel: string; checksum: string; rules: { id: string }[] };
    expect(manifest.channel).toBe("client");
    expect(manifest.rules.map((rule) => rule.id)).not.toContain("order.created.notify");
  });
  test("the server manifest needs the token and is private, without CORS", async () => {
    expect((await get(`/rulesets/${SHOP}/manifest?channel=server`)).status).toBe(401);
    const response = await get(`/rulesets/${SHOP}/manifest?channel=server`, auth);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("private, no-cache");
    expect(response.headers.get("etag")).toBe(`"${shopChecksum}-server"`);
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
    expect(((await response.json()) as { rules: { id: string }[] }).rules.map((rule) => rule.id)).toContain(
      "order.created.notify",
    );
  });
  test("If-None-Match: 304 with the same ETag and Cache-Control and no body, for lists, weak tags and *", async () => {
    const tag = `"${shopChecksum}-client"`;
    for (const header of [tag, `"other", ${tag}`, `W/${tag}`, "*"]) {
      const response = await get(`/rulesets/${SHOP}/manifest`, { "If-None-Match": header });
      expect(response.status).toBe(304);
      expect(response.headers.get("etag")).toBe(tag);
      expect(response.headers.get("cache-control")).toBe("public, max-age=0, must-revalidate");
      expect(await response.text()).toBe("");
    }
    expect((await get(`/rulesets/${SHOP}/manifest`, { "If-None-Match": '"other"' })).status).toBe(200);
  });
  test("order of checks: channel value, token, ruleset, checksum, conditional request", async () => {
    expect((await get(`/rulesets/nope/manifest?channel=web`)).status).toBe(400);
    expect((await get(`/rulesets/nope/manifest?channel=server`)).status).toBe(401);
    expect((await get(`/rulesets/${SHOP}/manifest?channel=server`, { "If-None-Match": "*" })).status).toBe(401);
    expect((await get(`/rulesets/nope/manifest?channel=server`, auth)).status).toBe(404);
    expect((await get(`/rulesets/nope/manifest`)).status).toBe(404);
    const stale = `sha256:${"0".repeat(64)}`;
    expect((await get(`/rulesets/${SHOP}/manifest?checksum=${stale}`, { "If-None-Match": "*" })).status).toBe(409);
  });
  test("a checksum that is not the one served is 409, no-store, with the served checksum", async () => {
    const response = await get(`/rulesets/${SHOP}/manifest?checksum=sha256:${"a".repeat(64)}`);
    expect(response.status).toBe(409);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(((await response.json()) as { checksum: string }).checksum).toBe(shopChecksum);
  });
  test("the served checksum is answered as usual; a malformed checksum is 400", async () => {
    expect((await get(`/rulesets/${SHOP}/manifest?checksum=${shopChecksum}`)).status).toBe(200);
    expect((await get(`/rulesets/${SHOP}/manifest?checksum=sha256:ABC`)).status).toBe(400);
  });
  test("malformed percent-encoding in the path is 400", async () =>
    expect((await get(`/rulesets/%ZZ/manifest`)).status).toBe(400));
});

describe("GET /rulesets/{id}/bundle", () => {
  test("needs the token, checked before the lookup and the conditional request", async () => {
    expect((await get(`/rulesets/nope/bundle`)).status).toBe(401);
    expect((await get(`/rulesets/${SHOP}/bundle`, { "If-None-Match": "*" })).status).toBe(401);
    expect((await get(`/rulesets/nope/bundle`, auth)).status).toBe(404);
  });
  test("answers the bundle with its ETag, private, and 304 on a match", async () => {
    const response = await get(`/rulesets/${SHOP}/bundle`, auth);
    expect(response.status).toBe(200);
    expect(response.headers.get("etag")).toBe(`"${shopChecksum}-bundle"`);
    expect(response.headers.get("cache-control")).toBe("private, no-cache");
    expect(((await response.json()) as { ruleCascadeBundle: string }).ruleCascadeBundle).toBe("1.0.0");
    expect(
      (await get(`/rulesets/${SHOP}/bundle`, { ...auth, "If-None-Match": `"${shopChecksum}-bundle"` })).status,
    ).toBe(304);
  });
  test("a wrong token is answered like a missing one, with WWW-Authenticate", async () => {
    const response = await get(`/rulesets/${SHOP}/bundle`, { Authorization: "Bearer wrong" });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe("Bearer");
    expect((await get(`/rulesets/${SHOP}/bundle`, { Authorization: `Basic ${TOKEN}` })).status).toBe(401);
  });
});

describe("GET /rulesets/{id}/rules/{ruleId}", () => {
  test("a client-safe rule is public, with the client Cache-Control, CORS and its own ETag", async () => {
    const response = await get(`/rulesets/${SHOP}/rules/order.quantity.max`);
    expect(response.status).toBe(200);
    expect(response.headers.get("etag")).toBe(`"${shopChecksum}-rule-order.quantity.max"`);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(((await response.json()) as { origin: string }).origin).toBe("shop.orders.order@1.0.0");
    expect(
      (
        await get(`/rulesets/${SHOP}/rules/order.quantity.max`, {
          "If-None-Match": `"${shopChecksum}-rule-order.quantity.max"`,
        })
      ).status,
    ).toBe(304);
  });
  test("a server-only rule needs the token and is private", async () => {
    expect((await get(`/rulesets/${SHOP}/rules/order.created.notify`)).status).toBe(401);
    const response = await get(`/rulesets/${SHOP}/rules/order.created.notify`, auth);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("private, no-cache");
  });
  test("an unknown ruleset or rule is 404", async () => {
    expect((await get(`/rulesets/nope/rules/x`)).status).toBe(404);
    expect((await get(`/rulesets/${SHOP}/rules/nope`)).status).toBe(404);
  });
});

describe("POST /evaluations", () => {
  test("evaluates with the token and answers the result with the summary members", async () => {
    const response = await evaluate(goodOrder);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const result = (await response.json()) as Record<string, unknown>;
    expect(result).toMatchObject({
      ruleset: SHOP,
      checksum: shopChecksum,
      decision: "allow",
      blocking: false,
      resolution: "none",
    });
    expect((result.commands as { idempotencyKey: string }[])[0]!.idempotencyKey).toBe("order:0.3");
  });
  test("channel client evaluates the client manifest: no commands", async () => {
    const result = (await (await evaluate({ ...goodOrder, channel: "client" })).json()) as { commands: unknown[] };
    expect(result.commands).toEqual([]);
  });
  test("a ruleset read from a bundle evaluates too", async () =>
    expect(((await (await evaluate({ ...goodOrder, ruleset: BUNDLED })).json()) as { decision: string }).decision).toBe(
      "allow",
    ));
  test("a deny with several findings reports blocking, resolution and acceptableBy", async () => {
    const result = (await (await evaluate({ ...goodOrder, data: { quantity: 150, unitPrice: 1 } })).json()) as Record<
      string,
      unknown
    >;
    expect(result).toMatchObject({ decision: "deny", blocking: true, resolution: "none" });
    expect((result.findings as unknown[]).length).toBe(2);
  });
  test("without the token: 401, before the body is even looked at", async () => {
    expect((await evaluate(goodOrder, {})).status).toBe(401);
    expect((await evaluate("not json", {})).status).toBe(401);
  });
  test("400 titles name what is wrong", async () => {
    const title = async (body: unknown): Promise<string> => {
      const response = await evaluate(body);
      expect(response.status).toBe(400);
      expect(response.headers.get("content-type")).toBe("application/problem+json");
      return ((await response.json()) as { title: string }).title;
    };
    expect(await title("{nope")).toBe("body is not valid JSON");
    expect(await title('{"ruleset":"x","entity":"Order","operation":"create","data":{"n":1e999}}')).toBe(
      "a number is too large for a double",
    );
    expect(await title({ ...goodOrder, view: 5 })).toBe("'view' must be an object");
    expect(await title({ ...goodOrder, entity: 5 })).toBe("'entity' must be a string");
    expect(await title({ ...goodOrder, actor: { roles: [1] } })).toBe("'actor.roles' must be a list of strings");
    expect(await title({ ...goodOrder, channel: "web" })).toBe(`'channel' must be "client" or "server"`);
    expect(await title({ entity: "Order", operation: "create" })).toBe("'ruleset' must be a string");
    let deep: unknown = 1;
    for (let i = 0; i < 65; i++) deep = [deep];
    expect(await title({ ...goodOrder, data: { deep } })).toBe("'data' is nested more than 64 deep");
  });
  test("the shape is checked before the ruleset is looked up", async () =>
    expect((await evaluate({ ...goodOrder, ruleset: "nope", view: 5 })).status).toBe(400));
  test("an unknown ruleset or version is 404; the served version evaluates", async () => {
    expect((await evaluate({ ...goodOrder, ruleset: "nope" })).status).toBe(404);
    expect((await evaluate({ ...goodOrder, version: "9.9.9" })).status).toBe(404);
    expect((await evaluate({ ...goodOrder, version: "1.0.0" })).status).toBe(200);
  });
  test("a body over 1 MiB is 413, by Content-Length or as it streams", async () => {
    const big = JSON.stringify({ ...goodOrder, data: { pad: "x".repeat(1024 * 1024) } });
    expect((await evaluate(big)).status).toBe(413);
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big));
        controller.close();
      },
    });
    expect((await fetch(`${server.url}/evaluations`, { method: "POST", headers: json, body: stream })).status).toBe(
      413,
    );
  });
  test("a body declared as something other than JSON is 415 with Accept-Post, after the token and before the size", async () => {
    for (const type of [
      "text/plain",
      "application/x-www-form-urlencoded",
      "application/xml",
      "application/jsonx",
      "application/+json",
      "",
    ]) {
      const response = await evaluate(goodOrder, { ...auth, "Content-Type": type });
      expect(response.status, type).toBe(415);
      expect(response.headers.get("accept-post"), type).toBe("application/json");
      expect(((await response.json()) as { title: string }).title).toBe(
        "the body must be JSON: send Content-Type: application/json",
      );
    }
    // What a browser's or Node's fetch declares for a string body unless told otherwise.
    expect((await evaluate(goodOrder, { ...auth, "Content-Type": "text/plain;charset=UTF-8" })).status).toBe(415);
    expect((await evaluate(goodOrder, { "Content-Type": "text/plain" })).status).toBe(401);
    expect(
      (await evaluate(JSON.stringify({ pad: "x".repeat(1024 * 1024 + 10) }), { ...auth, "Content-Type": "text/plain" }))
        .status,
    ).toBe(415);
  });
  test("JSON in any case, with parameters, or as an application/*+json type is evaluated; so is a body without Content-Type", async () => {
    for (const type of [
      "application/json",
      "Application/JSON; charset=utf-8",
      "application/json;charset=UTF-8",
      "application/problem+json",
      "application/vnd.acme.order+json; version=2",
    ]) {
      expect((await evaluate(goodOrder, { ...auth, "Content-Type": type })).status, type).toBe(200);
    }
    // Written by hand, so that nothing adds a Content-Type on the way.
    const answer = await requestOnNewConnection(server.port, "POST", "/evaluations", auth, JSON.stringify(goodOrder));
    expect(answer.status).toBe(200);
    expect((JSON.parse(answer.text) as { decision: string }).decision).toBe("allow");
  });
  test("an oversized request without a valid token is 401", async () =>
    expect((await evaluate(JSON.stringify({ pad: "x".repeat(1024 * 1024 + 10) }), {})).status).toBe(401));
});

describe("methods, HEAD, CORS preflights and unknown paths", () => {
  test("another method on a known path is 405 with Allow", async () => {
    const response = await get("/rulesets", {}, "DELETE");
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect((await get("/evaluations")).headers.get("allow")).toBe("POST");
  });
  test("HEAD is served wherever GET is, without a body", async () => {
    const response = await get(`/rulesets/${SHOP}/manifest`, {}, "HEAD");
    expect(response.status).toBe(200);
    expect(response.headers.get("etag")).toBe(`"${shopChecksum}-client"`);
    expect(await response.text()).toBe("");
  });
  test("public endpoints answer preflights allowing If-None-Match; protected ones send no CORS headers", async () => {
    const preflight = await get(
      `/rulesets/${SHOP}/manifest`,
      { Origin: "https://app.example", "Access-Control-Request-Method": "GET" },
      "OPTIONS",
    );
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-headers")).toContain("If-None-Match");
    expect((await get("/evaluations", {}, "OPTIONS")).status).toBe(405);
    expect((await get(`/rulesets/${SHOP}/bundle`, auth)).headers.get("access-control-allow-origin")).toBeNull();
  });
  test("an unknown path is 404 problem+json", async () => {
    const response = await get("/nope");
    expect(response.status).toBe(404);
    expect(((await response.json()) as { type: string; status: number }).type).toBe("about:blank");
  });
});

describe("logs", () => {
  test("one JSON line per request with method, path without query, status and ms; evaluations add ruleset and decision", async () => {
    await get(`/rulesets?scope=shop`);
    await evaluate(goodOrder);
    const list = await server.waitForLog((line) => line.msg === "request" && line.path === "/rulesets");
    expect(list).toMatchObject({ level: "info", method: "GET", status: 200 });
    expect(typeof list.ms).toBe("number");
    const evaluation = await server.waitForLog(
      (line) => line.msg === "request" && line.path === "/evaluations" && line.status === 200,
    );
    expect(evaluation).toMatchObject({ ruleset: SHOP, decision: "allow" });
  });
  test("health probes are not logged, and neither the token nor the Authorization header ever is", async () => {
    await get("/healthz");
    await get("/readyz");
    await get(`/rulesets/${SHOP}/bundle`, auth);
    await server.waitForLog((line) => line.path === `/rulesets/${SHOP}/bundle`);
    expect(server.logs().some((line) => line.path === "/healthz" || line.path === "/readyz")).toBe(false);
    expect(server.output()).not.toContain(TOKEN);
    expect(server.output().toLowerCase()).not.toContain("authorization");
  });
});
