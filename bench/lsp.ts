/**
 * `rule-server lsp` as an author feels it: a real server process pinned to one core, the rules/
 * example's payments ruleset open, 1,000 edits typed into it. Prints how long each edit's
 * diagnostics took to arrive (from the change sent to the diagnostics received, the pause that
 * ends a burst of typing included) and the server's resident memory after the first 100 edits
 * and after all of them. Targets: diagnostics within 100 ms; memory flat. Asserts nothing.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { LspClient } from "../test/support/lsp-client.ts";

export async function benchLsp(edits = 1000): Promise<void> {
  const file = join(import.meta.dir, "..", "rules", "acme-payments.ruleset.yaml");
  const uri = Bun.pathToFileURL(file).href;
  const text = readFileSync(file, "utf8");
  const client = new LspClient(["taskset", "-c", "1"]);
  await client.initialize(join(import.meta.dir, "..", "rules"));
  client.open(uri, text);
  await client.waitForDiagnostics(uri);
  const latencies: number[] = [];
  let rssAfter100 = 0;
  for (let edit = 1; edit <= edits; edit++) {
    // Alternately a mistake and its correction, so that every edit changes what is published.
    const edited = edit % 2 === 1 ? text.replace("op: lte", "op: lte3") : text;
    const before = client.publishedCount(uri);
    const sent = performance.now();
    client.notify("textDocument/didChange", {
      textDocument: { uri, version: edit + 1 },
      contentChanges: [{ text: edited }],
    });
    await client.waitForDiagnostics(uri, (list) => (edit % 2 === 1) === list.length > 0, before);
    latencies.push(performance.now() - sent);
    if (edit === 100) rssAfter100 = client.residentBytes();
  }
  const rssAfterAll = client.residentBytes();
  await client.shutdown();
  latencies.sort((a, b) => a - b);
  const percentile = (p: number): number =>
    latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))]!;
  console.log(`\nrule-server lsp, ${edits} edits of rules/acme-payments.ruleset.yaml (server pinned to core 1)`);
  console.log(
    `diagnostics after a change: p50 ${percentile(0.5).toFixed(1)} ms, p90 ${percentile(0.9).toFixed(1)} ms, p99 ${percentile(0.99).toFixed(1)} ms (target 100 ms)`,
  );
  console.log(
    `resident memory: ${(rssAfter100 / 1048576).toFixed(1)} MiB after 100 edits, ${(rssAfterAll / 1048576).toFixed(1)} MiB after ${edits} (target: flat)`,
  );
}

if (import.meta.main) await benchLsp();
