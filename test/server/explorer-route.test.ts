import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { bundleBrowserModule } from "../../src/bundling/browser-module-bundle.ts";
import { readEnvironment } from "../../src/server/config/read-environment.ts";
import { ConfigurationError } from "../../src/server/config/server-options.ts";
import { assertConformsToOpenApi } from "../support/openapi-conformance.ts";
import { parseExposition } from "../support/prometheus-exposition.ts";
import { PROJECT_ROOT } from "../support/run-cli.ts";
import { serverEnvironment, startServer, TOKEN, type ServerProcess } from "../support/server-process.ts";

/**
 * How the server serves the explorer (DECISIONS.md, Extensions): the page and its files with
 * their content types and security headers, revalidation, the redirect, metrics by route
 * pattern, and nothing at all with RULE_SERVER_EXPLORER=0. Every answer conforms to openapi.yaml.
 */
const RULES = join(PROJECT_ROOT, "rules");
let server: ServerProcess;
let switchedOff: ServerProcess;

beforeAll(async () => {
  [server, switchedOff] = await Promise.all([
    startServer(serverEnvironment(RULES)),
    startServer(serverEnvironment(RULES, { RULE_SERVER_EXPLORER: "0" })),
  ]);
});
afterAll(async () => {
  await Promise.all([server?.kill(), switchedOff?.kill()]);
});

async function request(on: ServerProcess, path: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(`${on.url}${path}`, { redirect: "manual", ...init });
  const text = await response.clone().text();
  const type = response.headers.get("content-type");
  assertConformsToOpenApi(
    init.method ?? "GET",
    path,
    response.status,
    type,
    text === "" ? undefined : type?.includes("json") ? JSON.parse(text) : text,
  );
  return response;
}

const SECURITY_HEADERS = {
  "content-security-policy": "default-src 'self'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
};

function securityHeadersOf(response: Response): Record<string, string | null> {
  return Object.fromEntries(Object.keys(SECURITY_HEADERS).map((name) => [name, response.headers.get(name)]));
}

describe("GET /explorer/ and its files", () => {
  test("the page, its script, style sheet, icon and the browser module, each with its type and the security headers", async () => {
    const types: Record<string, string> = {
      "/explorer/": "text/html; charset=utf-8",
      "/explorer/explorer.js": "text/javascript; charset=utf-8",
      "/explorer/explorer.css": "text/css; charset=utf-8",
      "/explorer/favicon.svg": "image/svg+xml",
      "/explorer/rule-cascade.js": "text/javascript; charset=utf-8",
    };
    for (const [path, type] of Object.entries(types)) {
      const response = await request(server, path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get("content-type"), path).toBe(type);
      expect(securityHeadersOf(response), path).toEqual(SECURITY_HEADERS);
      expect(response.headers.get("cache-control"), path).toBe("no-cache");
    }
  });

  test("the page holds no inline script or style and loads only its own files", async () => {
    const html = await (await request(server, "/explorer/")).text();
    expect(html).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
    const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((match) => match[1]);
    expect(scripts).toEqual([' type="module" src="explorer.js"']);
    expect([...html.matchAll(/\b(?:href|src)="([^"]+)"/g)].map((match) => match[1]).sort()).toEqual([
      "#/",
      "#main",
      "explorer.css",
      "explorer.js",
      "favicon.svg",
    ]);
  });

  test("the browser module served is the one buildBrowserModule writes, and the page's script imports it", async () => {
    expect(await (await request(server, "/explorer/rule-cascade.js")).text()).toBe(await bundleBrowserModule());
    const script = await (await request(server, "/explorer/explorer.js")).text();
    expect(script).toMatch(/from\s*"\.\/rule-cascade\.js"/);
    // The engine is not bundled into the page's script a second time.
    expect(script.length).toBeLessThan(40_000);
  }, 30_000);

  test("revalidated with its ETag, compressed when asked, HEAD without a body, other methods 405", async () => {
    const first = await request(server, "/explorer/rule-cascade.js", { headers: { "Accept-Encoding": "gzip" } });
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(first.headers.get("content-encoding")).toBe("gzip");
    expect(first.headers.get("vary")).toBe("Accept-Encoding");
    // fetch decodes the body: the same text as the uncompressed answer.
    expect(await first.text()).toBe(await (await request(server, "/explorer/rule-cascade.js")).text());

    const again = await request(server, "/explorer/rule-cascade.js", { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(etag);
    expect(securityHeadersOf(again)).toEqual(SECURITY_HEADERS);

    const head = await request(server, "/explorer/", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    const post = await request(server, "/explorer/", { method: "POST" });
    expect(post.status).toBe(405);
  });

  test("/explorer redirects beside the page, keeping the query; unknown files are 404", async () => {
    const bare = await request(server, "/explorer");
    expect(bare.status).toBe(308);
    expect(bare.headers.get("location")).toBe("explorer/");
    expect((await request(server, "/explorer?scope=acme")).headers.get("location")).toBe("explorer/?scope=acme");
    for (const path of ["/explorer/nothing.js", "/explorer/index.html"]) {
      const missing = await request(server, path);
      expect(missing.status, path).toBe(404);
      expect(missing.headers.get("content-type"), path).toBe("application/problem+json");
    }
  });

  test("requests are counted by route pattern", async () => {
    await request(server, "/explorer/explorer.css");
    const metrics = parseExposition(
      await (await fetch(`${server.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })).text(),
    );
    expect(
      metrics.value("rule_server_requests_total", { route: "/explorer/:asset", method: "GET", status: "200" }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      metrics.value("rule_server_requests_total", { route: "/explorer/", method: "GET", status: "200" }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      metrics.value("rule_server_requests_total", { route: "/explorer", method: "GET", status: "308" }),
    ).toBeGreaterThanOrEqual(1);
  });
});

describe("RULE_SERVER_EXPLORER=0", () => {
  test("serves no page, no file and no redirect: the paths are unknown", async () => {
    for (const path of ["/explorer", "/explorer/", "/explorer/explorer.js", "/explorer/rule-cascade.js"]) {
      const response = await request(switchedOff, path);
      expect(response.status, path).toBe(404);
    }
    const metrics = parseExposition(
      await (await fetch(`${switchedOff.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })).text(),
    );
    expect(metrics.value("rule_server_requests_total", { route: "unmatched", method: "GET", status: "404" })).toBe(4);
    // The rest of the server is unchanged.
    expect((await request(switchedOff, "/rulesets")).status).toBe(200);
  });

  test("the variable is 0 or 1 (or false or true); anything else is a configuration error", () => {
    const base = { RULE_SERVER_TOKEN: "t" };
    expect(readEnvironment(base).explorer).toBe(true);
    expect(readEnvironment({ ...base, RULE_SERVER_EXPLORER: "1" }).explorer).toBe(true);
    expect(readEnvironment({ ...base, RULE_SERVER_EXPLORER: "0" }).explorer).toBe(false);
    expect(readEnvironment({ ...base, RULE_SERVER_EXPLORER: "false" }).explorer).toBe(false);
    expect(() => readEnvironment({ ...base, RULE_SERVER_EXPLORER: "off" })).toThrow(ConfigurationError);
  });
});
