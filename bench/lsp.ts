/**
 * `rule-server lsp` as an author feels it: a real server process pinned to one core, a ruleset
 * open, edits typed into it: the rules/ example's payments ruleset (1,000 edits), then one copy of
 * the transfers ruleset among a thousand (scale size L, issue 40; 10 edits, LSP_L_EDITS). Prints
 * how long the first diagnostics took after opening (the one full check), how long each edit's
 * diagnostics took to arrive (from the change sent to the diagnostics received, the pause that ends
 * a burst of typing included) and the server's resident memory after the first 100 edits and after
 * all of them. Targets: diagnostics within 100 ms (the example) and 200 ms at p99 (L); memory
 * flat. Asserts nothing.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { LspClient } from "../test/support/lsp-client.ts";
import { generateRulesDirectory } from "./scale/generate-rules-directory.ts";

export async function benchLsp(): Promise<void> {
  await benchEdits(join(import.meta.dir, "..", "rules", "acme-payments.ruleset.yaml"), "op: lte", 1000, "100 ms");
  const scratch = mkdtempSync(join(tmpdir(), "rule-server-lsp-bench-"));
  try {
    const rules = join(scratch, "rules");
    mkdirSync(rules);
    const generated = generateRulesDirectory(rules, { rulesets: 1000 });
    await benchEdits(
      generated.editableFile,
      "op: gt",
      Number(process.env.LSP_L_EDITS ?? 10),
      "200 ms at p99",
      "among 1,000 rulesets",
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** `edits` changes to `file`, alternately `mistaken` made unknown (a diagnostic) and put right. */
async function benchEdits(file: string, mistaken: string, edits: number, target: string, where = ""): Promise<void> {
  const uri = Bun.pathToFileURL(file).href;
  const text = readFileSync(file, "utf8");
  if (!text.includes(mistaken)) throw new Error(`${file} holds no ${mistaken} to edit`);
  const client = new LspClient(["taskset", "-c", "1"]);
  await client.initialize(dirname(file));
  const opened = performance.now();
  client.open(uri, text);
  // The first check reads and checks the whole directory: at a thousand rulesets, seconds. Each
  // edit after it checks again only what the edit can change.
  await client.waitForDiagnostics(uri, () => true, 0, 300_000);
  const firstDiagnosticsMs = performance.now() - opened;
  const latencies: number[] = [];
  let rssAfter100 = 0;
  for (let edit = 1; edit <= edits; edit++) {
    // Alternately a mistake and its correction, so that every edit changes what is published.
    const edited = edit % 2 === 1 ? text.replace(mistaken, `${mistaken}3`) : text;
    const before = client.publishedCount(uri);
    const sent = performance.now();
    client.notify("textDocument/didChange", {
      textDocument: { uri, version: edit + 1 },
      contentChanges: [{ text: edited }],
    });
    await client.waitForDiagnostics(uri, (list) => (edit % 2 === 1) === list.length > 0, before, 300_000);
    latencies.push(performance.now() - sent);
    if (edit === 100) rssAfter100 = client.residentBytes();
  }
  const rssAfterAll = client.residentBytes();
  await client.shutdown();
  latencies.sort((a, b) => a - b);
  const percentile = (p: number): number =>
    latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))]!;
  console.log(
    `\nrule-server lsp, ${edits} edits of ${basename(file)}${where ? ` ${where}` : ""} (server pinned to core 1)`,
  );
  console.log(`first diagnostics after opening: ${firstDiagnosticsMs.toFixed(0)} ms`);
  console.log(
    `diagnostics after a change: p50 ${percentile(0.5).toFixed(1)} ms, p90 ${percentile(0.9).toFixed(1)} ms, p99 ${percentile(0.99).toFixed(1)} ms (target ${target})`,
  );
  console.log(
    `resident memory: ${(rssAfter100 / 1048576).toFixed(1)} MiB after 100 edits, ${(rssAfterAll / 1048576).toFixed(1)} MiB after ${edits} (target: flat)`,
  );
}

if (import.meta.main) await benchLsp();
