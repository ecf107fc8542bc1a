import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Server } from "bun";
import { openInChromium } from "../support/headless-chromium.ts";
import { installedPackage, type InstalledPackage } from "../support/npm-package-project.ts";
import { PROJECT_ROOT } from "../support/run-cli.ts";
import { serverEnvironment, startServer, TOKEN, type ServerProcess } from "../support/server-process.ts";
import { TRANSFER_REQUESTS, TRANSFERS_RULESET } from "../support/transfer-requests.ts";

/**
 * Pages of an application that installed the npm package, bundled by esbuild and by Vite (with
 * their JavaScript APIs, from the application's node_modules), in headless Chromium. A page that
 * uses both entry points evaluates the rules/ example locally and through the client against a
 * real server behind the application's own origin (a gateway that adds the token, as the package
 * README says a page must be served); a page that imports only the engine evaluates locally, and
 * its bundle holds nothing of the client.
 */
const PAGES = {
  "engine.js": `
import { fetchRuleset } from "rule-server/engine";

async function main() {
  const config = await (await fetch("/config.json")).json();
  const ruleset = await fetchRuleset(new URL("/rule-server", location.href), config.ruleset);
  return { local: config.requests.map((request) => ruleset.evaluate(request, "client")) };
}
main().then((outcome) => report(outcome), (error) => report({ error: String(error?.stack ?? error) }));
const report = (body) => fetch("/report/" + location.pathname.split("/")[1], { method: "POST", body: JSON.stringify(body) });
`,
  "both.js": `
import { loadRuleset } from "rule-server/engine";
import { createClient, RuleServerError } from "rule-server/client";

async function main() {
  const config = await (await fetch("/config.json")).json();
  const client = createClient({ baseUrl: "/rule-server" });
  const ruleset = await client.ruleset(config.ruleset);
  const fromManifest = await loadRuleset(await client.manifest(config.ruleset));
  const remote = [];
  for (const request of config.requests) remote.push(await client.evaluate({ ...request, ruleset: config.ruleset, channel: "client" }));
  const batch = await client.evaluateBatch(config.requests.map((request, id) => ({ id, ...request })), { ruleset: config.ruleset, channel: "client" });
  const problem = await client.evaluate({ ruleset: "no.such.ruleset", entity: "Transfer", operation: "create" }).then(
    () => "answered",
    (error) => ({ isRuleServerError: error instanceof RuleServerError, code: error.code, status: error.status, problem: error.problem }),
  );
  return {
    local: config.requests.map((request) => ruleset.evaluate(request, "client")),
    fromManifest: config.requests.map((request) => fromManifest.evaluate(request, "client")),
    remote,
    batch: batch.map((item) => item.result),
    rulesets: (await client.rulesets()).map((entry) => entry.id),
    problem,
  };
}
main().then((outcome) => report(outcome), (error) => report({ error: String(error?.stack ?? error) }));
const report = (body) => fetch("/report/" + location.pathname.split("/")[1], { method: "POST", body: JSON.stringify(body) });
`,
};

/** Run with Node.js in the application's directory: each page bundled on its own by each bundler. */
const BUILD_PAGES = `
import { build as esbuild } from "esbuild";
import { build as vite } from "vite";

for (const page of ["engine", "both"]) {
  await esbuild({ entryPoints: ["pages/" + page + ".js"], bundle: true, format: "esm", minify: true, platform: "browser", outfile: "out/esbuild-" + page + "/" + page + ".js", logLevel: "error" });
  await vite({ root: process.cwd(), base: "/vite-" + page + "/", configFile: false, logLevel: "error", build: { outDir: "out/vite-" + page, emptyOutDir: true, rolldownOptions: { input: page + ".html" } } });
}
`;

const html = (script: string): string =>
  `<!doctype html>\n<meta charset="utf-8">\n<title>rule-server package</title>\n<script type="module" src="${script}"></script>\n`;
const BUILDS = ["esbuild-engine", "esbuild-both", "vite-engine", "vite-both"] as const;
type Build = (typeof BUILDS)[number];

let installed: InstalledPackage;
let server: ServerProcess;
let pages: Server<undefined>;
const reports = new Map<string, (body: unknown) => void>();
const reported = new Map<string, Promise<unknown>>(
  BUILDS.map((name) => [name, new Promise((resolve) => reports.set(name, resolve))]),
);

/** The JavaScript a build's page loads: every .js file it wrote. */
function scriptsOf(build: Build): string {
  const directory = join(installed.project, "out", build);
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(dir, entry.name));
      else if (entry.name.endsWith(".js")) files.push(readFileSync(join(dir, entry.name), "utf8"));
    }
  };
  walk(directory);
  return files.join("\n");
}

beforeAll(async () => {
  installed = installedPackage();
  const project = installed.project;
  mkdirSync(join(project, "pages"), { recursive: true });
  for (const [name, text] of Object.entries(PAGES)) writeFileSync(join(project, "pages", name), text);
  for (const page of ["engine", "both"]) writeFileSync(join(project, `${page}.html`), html(`/pages/${page}.js`));
  writeFileSync(join(project, "build-pages.mjs"), BUILD_PAGES);
  const build = Bun.spawnSync(["node", "build-pages.mjs"], { cwd: project, stdout: "pipe", stderr: "pipe" });
  if (build.exitCode !== 0)
    throw new Error(`bundling the pages failed: ${build.stdout.toString()}${build.stderr.toString()}`);
  for (const page of ["engine", "both"])
    writeFileSync(join(project, "out", `esbuild-${page}`, `${page}.html`), html(`./${page}.js`));

  server = await startServer(serverEnvironment(join(PROJECT_ROOT, "rules")));
  const config = JSON.stringify({ ruleset: TRANSFERS_RULESET, requests: TRANSFER_REQUESTS });
  const frames = BUILDS.map((name) => `<iframe src="/${name}/${name.split("-")[1]}.html"></iframe>`).join("\n");
  pages = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      if (url.pathname === "/")
        return new Response(`<!doctype html>\n<meta charset="utf-8">\n${frames}\n`, {
          headers: { "Content-Type": "text/html" },
        });
      if (url.pathname === "/config.json") return Response.json(JSON.parse(config));
      if (request.method === "POST" && url.pathname.startsWith("/report/")) {
        reports.get(url.pathname.slice("/report/".length))?.(await request.json());
        return new Response(null, { status: 204 });
      }
      // The application's gateway: the rule server under the page's origin, with the token added.
      if (url.pathname.startsWith("/rule-server/")) {
        const headers = new Headers(request.headers);
        headers.set("Authorization", `Bearer ${TOKEN}`);
        headers.delete("Host");
        const body = request.method === "GET" || request.method === "HEAD" ? null : await request.text();
        const answer = await fetch(`${server.url}${url.pathname.slice("/rule-server".length)}${url.search}`, {
          method: request.method,
          headers,
          body,
        });
        return new Response(await answer.arrayBuffer(), {
          status: answer.status,
          headers: {
            "Content-Type": answer.headers.get("Content-Type") ?? "application/json",
            ...(answer.headers.get("ETag") ? { ETag: answer.headers.get("ETag")! } : {}),
          },
        });
      }
      const file = join(project, "out", url.pathname);
      if (!url.pathname.includes("..") && existsSync(file) && statSync(file).isFile())
        return new Response(Bun.file(file), {
          headers: {
            "Content-Type": file.endsWith(".js") ? "text/javascript" : "text/html",
            "Cache-Control": "no-store",
          },
        });
      return new Response("not found", { status: 404 });
    },
  });
}, 60000);

afterAll(async () => {
  pages?.stop(true);
  await server?.kill();
});

test("pages bundled by esbuild and by Vite evaluate the rules/ example in Chromium, locally and through the client, with the server's answers", async () => {
  const expected: unknown[] = [];
  for (const request of TRANSFER_REQUESTS) {
    const answer = await fetch(`${server.url}/evaluations`, {
      method: "POST",
      headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" },
      body: JSON.stringify({ ...request, ruleset: TRANSFERS_RULESET, channel: "client" }),
    });
    expected.push(await answer.json());
  }
  expect(JSON.stringify(expected)).toContain("ACME-PAY-005");
  const chromium = openInChromium(`http://127.0.0.1:${pages.port}/`);
  try {
    const timeout = Bun.sleep(20_000).then(() => ({ error: `no report in 20 s:\n${chromium.output()}` }));
    const outcomes = Object.fromEntries(
      await Promise.all(
        BUILDS.map(async (name) => [name, await Promise.race([reported.get(name)!, timeout])] as const),
      ),
    ) as Record<Build, Record<string, unknown>>;
    for (const name of BUILDS) expect(outcomes[name].error, name).toBeUndefined();
    for (const name of BUILDS) expect(outcomes[name].local, `${name}: evaluated in the page`).toEqual(expected);
    for (const name of ["esbuild-both", "vite-both"] as const) {
      const outcome = outcomes[name];
      expect(outcome.fromManifest, `${name}: loadRuleset of client.manifest()`).toEqual(expected);
      expect(outcome.remote, `${name}: client.evaluate()`).toEqual(expected);
      expect(outcome.batch, `${name}: client.evaluateBatch()`).toEqual(expected);
      expect(outcome.rulesets, name).toContain(TRANSFERS_RULESET);
      expect(outcome.problem, name).toMatchObject({
        isRuleServerError: true,
        code: "NOT_FOUND",
        status: 404,
        problem: { type: "about:blank", status: 404 },
      });
    }
  } finally {
    await chromium.close();
  }
});

test("a page that imports only the engine entry point holds the engine and nothing of the client, with either bundler", () => {
  for (const build of ["esbuild-engine", "vite-engine"] as const) {
    const code = scriptsOf(build);
    expect(code, build).toContain("MANIFEST_INVALID");
    for (const trace of ["RuleServerError", "evaluations/batch", "SERVER_UNREACHABLE", "Bearer"])
      expect(code.includes(trace), `${build} holds ${trace}`).toBe(false);
  }
  for (const build of ["esbuild-both", "vite-both"] as const)
    expect(scriptsOf(build), build).toContain("evaluations/batch");
});
