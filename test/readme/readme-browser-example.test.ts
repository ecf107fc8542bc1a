import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { builtBrowserModule } from "../support/build-release.ts";
import { renderedDom } from "../support/headless-chromium.ts";
import { fencedBlocks } from "../support/markdown-blocks.ts";
import { servePage, type PageServer } from "../support/page-server.ts";
import { PROJECT_ROOT } from "../support/run-cli.ts";
import { serverEnvironment, startServer, TOKEN, type ServerProcess } from "../support/server-process.ts";

/**
 * The README's browser page, as written, in a real Chromium beside the built module, against a
 * rule server serving the shipped rules/: it shows the finding the server computes. Only the
 * server's port changes.
 */
const README = readFileSync(join(PROJECT_ROOT, "README.md"), "utf8");
let server: ServerProcess;
let page: PageServer;

beforeAll(async () => {
  const browserModule = builtBrowserModule();
  server = await startServer(serverEnvironment(join(PROJECT_ROOT, "rules")));
  const example = fencedBlocks(README).find((block) => block.words.includes("browser-example"));
  if (!example) throw new Error("the README has no html block marked browser-example");
  page = servePage({
    "/index.html": { type: "text/html", body: example.text.replaceAll("http://localhost:8080", server.url) },
    "/rule-cascade.js": { type: "text/javascript", body: readFileSync(browserModule, "utf8") },
  });
}, 60000);

afterAll(async () => {
  page?.stop();
  await server?.kill();
});

test("the README's page shows the finding the server computes for the client channel", async () => {
  const request = {
    ruleset: "acme.payments.transfers",
    channel: "client",
    entity: "Transfer",
    operation: "create",
    data: { amount: 30000, currency: "EUR", reference: "Invoice 42" },
    ctx: { now: new Date().toISOString() },
  };
  const answer = (await (
    await fetch(`${server.url}/evaluations`, {
      method: "POST",
      headers: { Authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify(request),
    })
  ).json()) as { findings: { code: string; message: string }[] };
  expect(answer.findings.length).toBeGreaterThan(0);
  const dom = await renderedDom(page.url);
  const shown = [...dom.matchAll(/<li>([^<]*)<\/li>/g)].map((match) => match[1]!.replaceAll("&amp;", "&"));
  expect(shown).toEqual(answer.findings.map((finding) => `${finding.code}: ${finding.message}`));
  expect(shown.some((line) => line.startsWith("ACME-PAY-005"))).toBe(true);
});
