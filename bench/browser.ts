/**
 * Evaluations per second of the shop bundle in headless Chromium next to Bun, with the same
 * requests through the same browser module (target: Chromium at least 70% of Bun). The thread that
 * evaluates is pinned to the same core on both sides, Bun's own and Chromium's renderer (its other
 * processes are not: pinning them too would make them compete with the page); the two take turns,
 * five rounds, and the medians are printed with the median of each round's ratio (both sides of a
 * round saw the same minute of a shared machine). Chromium also runs the loop with the module's
 * `codeGeneration` option on, which pages whose policy allows `eval` can use. Needs Debian's
 * chromium (the Makefile's bench target installs it).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { buildBrowserModule } from "../build.ts";
import * as browserModule from "../src/browser/rule-cascade.ts";
import { openInChromium } from "../test/support/headless-chromium.ts";
import { servePage } from "../test/support/page-server.ts";
import { evaluationRate } from "./browser/evaluation-loop.ts";
import { median } from "./measure.ts";

const SECONDS = 3;
const ROUNDS = 5;
const shopRequests: browserModule.JsonValue[] = [
  {
    entity: "Order",
    operation: "create",
    data: { quantity: 3, unitPrice: 0.1, customer: { email: "a@b.c" } },
    actor: { id: "u1", roles: ["clerk"] },
  },
  {
    entity: "Order",
    operation: "create",
    data: { quantity: 150, unitPrice: 19.99, express: true },
    actor: { id: "u1" },
  },
  {
    entity: "Order",
    operation: "update",
    data: { quantity: 101, unitPrice: 2.5, customer: { email: "a@b.c" } },
    locale: "fr-CA",
  },
  { entity: "Order", operation: "create", data: { quantity: 1, unitPrice: 1.15 }, trigger: "blur", channel: "client" },
];

/** The core both evaluating threads are pinned to, when there are two or more. */
const core = navigator.hardwareConcurrency >= 2 ? String(navigator.hardwareConcurrency - 1) : undefined;
const allCores = `0-${navigator.hardwareConcurrency - 1}`;

function pinThisProcess(cores: string | undefined): void {
  if (cores !== undefined) Bun.spawnSync(["taskset", "-cp", cores, String(process.pid)]);
}

export async function benchBrowser(): Promise<void> {
  const built = await buildBrowserModule();
  const bundle = JSON.parse(
    readFileSync(join(import.meta.dir, "..", "test", "cases", "interop", "shop", "shop-order.bundle.json"), "utf8"),
  );
  const transpiler = new Bun.Transpiler({ loader: "ts" });
  // The page's files, made once; each round serves them afresh (a page reports its rate once).
  const files = {
    "/index.html": { type: "text/html", body: readFileSync(join(import.meta.dir, "browser", "page.html"), "utf8") },
    "/page.js": { type: "text/javascript", body: readFileSync(join(import.meta.dir, "browser", "page.js"), "utf8") },
    "/evaluation-loop.js": {
      type: "text/javascript",
      body: transpiler.transformSync(readFileSync(join(import.meta.dir, "browser", "evaluation-loop.ts"), "utf8")),
    },
    "/rule-cascade.js": { type: "text/javascript", body: readFileSync(built.file, "utf8") },
    "/input.json": {
      type: "application/json",
      body: JSON.stringify({ bundle, requests: shopRequests, seconds: SECONDS }),
    },
  };
  const bunRates: number[] = [];
  const chromiumRates: number[] = [];
  const generatedRates: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    pinThisProcess(core);
    bunRates.push(await evaluationRate(browserModule, bundle, shopRequests, SECONDS));
    pinThisProcess(core === undefined ? undefined : allCores);
    const page = servePage(files);
    const chromium = openInChromium(page.url, core === undefined ? [] : [`--renderer-cmd-prefix=taskset -c ${core}`]);
    try {
      const rate = await Promise.race([
        page.report("rate"),
        Bun.sleep(60_000).then(() => `no answer within 60 s: ${chromium.output()}`),
      ]);
      if (typeof rate !== "object" || rate === null) throw new Error(`Chromium: ${String(rate)}`);
      const { closures, generated } = rate as { closures: number; generated: number };
      chromiumRates.push(closures);
      generatedRates.push(generated);
    } finally {
      await chromium.close();
      page.stop();
    }
  }
  const bun = median(bunRates);
  const chromium = median(chromiumRates);
  const format = (rate: number): string => Math.round(rate).toLocaleString("en-US").padStart(10);
  console.log(
    `\nThe browser module, shop bundle, four requests in turn (${core === undefined ? "not pinned" : `pinned to core ${core}`}, ${ROUNDS} rounds of ${SECONDS} s each, medians)`,
  );
  console.log(`Bun        ${format(bun)} evaluations/s   (runs: ${bunRates.map(Math.round).join(", ")})`);
  console.log(`Chromium   ${format(chromium)} evaluations/s   (runs: ${chromiumRates.map(Math.round).join(", ")})`);
  const ratio = median(chromiumRates.map((rate, round) => rate / bunRates[round]!));
  console.log(`Chromium / Bun: ${(ratio * 100).toFixed(0)}%, the median of the rounds' ratios (target: at least 70%)`);
  const generated = median(generatedRates.map((rate, round) => rate / chromiumRates[round]!));
  console.log(
    `Chromium with codeGeneration: ${format(median(generatedRates))} evaluations/s, ${generated.toFixed(2)}x the default (runs: ${generatedRates.map(Math.round).join(", ")})`,
  );
  console.log(
    `Module size: ${(built.bytes / 1024).toFixed(1)} KiB, ${(built.gzipBytes / 1024).toFixed(1)} KiB gzip (budget: 80 KB gzip)`,
  );
}

if (import.meta.main) await benchBrowser();
