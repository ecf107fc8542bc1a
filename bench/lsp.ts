/**
 * `rule-server lsp` as an author feels it: a real server process pinned to one core, a ruleset
 * open, edits typed into it: the rules/ example's payments ruleset (1,000 edits), then one copy of
 * the transfers ruleset among a thousand (scale size L, issue 40; 100 edits, LSP_L_EDITS). Prints
 * how long the first diagnostics took after opening (the one full check), how long each edit's
 * diagnostics took to arrive (from the change sent to the diagnostics received, the pause that ends
 * a burst of typing included) and the server's resident memory after the first 100 edits and after
 * all of them. Targets: diagnostics within 100 ms (the example) and 200 ms at p99 (L); memory
 * flat. Asserts nothing. LSP_SIZES=L measures the thousand rulesets only; LSP_PROFILE=<directory>
 * has the server write a CPU profile there.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { LspClient } from "../test/support/lsp-client.ts";
import { generateRulesDirectory } from "./scale/generate-rules-directory.ts";

export async function benchLsp(): Promise<void> {
  // LSP_SIZES=L measures only the thousand rulesets.
  const sizes = (process.env.LSP_SIZES ?? "example,L").split(",");
  if (sizes.includes("example"))
    await benchEdits(join(import.meta.dir, "..", "rules", "acme-payments.ruleset.yaml"), "op: lte", 1000, "100 ms");
  if (!sizes.includes("L")) return;
  const scratch = mkdtempSync(join(tmpdir(), "rule-server-lsp-bench-"));
  try {
    const rules = join(scratch, "rules");
    mkdirSync(rules);
    const generated = generateRulesDirectory(rules, { rulesets: 1000 });
    await benchEdits(
      generated.editableFile,
      "op: gt",
      Number(process.env.LSP_L_EDITS ?? 100),
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
  // LSP_PROFILE=<directory>: the server writes a CPU profile there as it exits.
  const profile = process.env.LSP_PROFILE;
  const client = new LspClient([
    ...(profile ? ["env", `BUN_OPTIONS=--cpu-prof --cpu-prof-dir=${profile}`] : []),
    "taskset",
    "-c",
    "1",
  ]);
  await client.initialize(dirname(file));
  const opened = performance.now();
  client.open(uri, text);
  // The first check reads and checks the whole directory: at a thousand rulesets, seconds. Each
  // edit after it checks again only what the edit can change.
  await client.waitForDiagnostics(uri, () => true, 0, 300_000);
  const firstDiagnosticsMs = performance.now() - opened;
  const latencies: number[] = [];
  // Memory early on, to compare with after the last edit: after the 100th, or the first of fewer.
  const earlyEdit = Math.min(100, edits);
  let rssEarly = 0;
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
    if (edit === earlyEdit) rssEarly = client.residentBytes();
  }
  const rssAfterAll = client.residentBytes();
  const firstEditMs = latencies[0]!;
  await client.shutdown();
  latencies.sort((a, b) => a - b);
  // Nearest rank: of 100 edits, p99 is the 99th slowest but one, not the slowest.
  const percentile = (p: number): number => latencies[Math.max(0, Math.ceil(latencies.length * p) - 1)]!;
  console.log(
    `\nrule-server lsp, ${edits} edits of ${basename(file)}${where ? ` ${where}` : ""} (server pinned to core 1)`,
  );
  console.log(
    `first diagnostics after opening: ${firstDiagnosticsMs.toFixed(0)} ms; after the first edit: ${firstEditMs.toFixed(0)} ms`,
  );
  console.log(
    `diagnostics after a change: p50 ${percentile(0.5).toFixed(1)} ms, p90 ${percentile(0.9).toFixed(1)} ms, p99 ${percentile(0.99).toFixed(1)} ms (target ${target})`,
  );
  console.log(
    `resident memory: ${(rssEarly / 1048576).toFixed(1)} MiB after ${earlyEdit} edits, ${(rssAfterAll / 1048576).toFixed(1)} MiB after ${edits} (target: flat)`,
  );
}

if (import.meta.main) await benchLsp();
