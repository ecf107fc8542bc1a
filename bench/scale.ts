/**
 * The server's costs as rules directories grow (issue 40, "[2/7] Scale"): for each size of
 * scale/scale-sizes.ts, generated from the example in rules/, the directory's rulesets, rules and
 * bundle bytes, the server's start-up, memory, SIGHUP reloads, `check`, and the requests per second
 * of one request next to the example's server, which runs through the whole bench so that every
 * size is measured against it. SCALE_SIZES chooses the sizes (example,M,L,W; all by default: L
 * takes minutes and GBs). Prints figures; asserts nothing. SCALE_CURVES names a file to draw them
 * in as SVG (the README's picture is docs/scale-curves.svg).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CHILD_ID, generateRulesDirectory } from "./scale/generate-rules-directory.ts";
import { loadAverage } from "./scale/load-average.ts";
import { startLoggedServer } from "./scale/logged-server.ts";
import { measureSize, type SizeFigures } from "./scale/measure-size.ts";
import { printScaleTable, scaleConditions } from "./scale/print-scale-table.ts";
import { scaleCurvesSvg } from "./scale/scale-curves-svg.ts";
import { chosenSizes } from "./scale/scale-sizes.ts";

export async function benchScale(): Promise<void> {
  const sizes = chosenSizes();
  const loadAtStart = loadAverage();
  const scratch = mkdtempSync(join(tmpdir(), "rule-server-scale-example-"));
  try {
    const exampleDir = join(scratch, "rules");
    mkdirSync(exampleDir);
    generateRulesDirectory(exampleDir, {});
    const example = await startLoggedServer(exampleDir);
    const figures: SizeFigures[] = [];
    try {
      for (const size of sizes)
        figures.push(await measureSize(size, { url: example.url, pid: example.pid, ruleset: CHILD_ID }));
    } finally {
      await example.stop();
    }
    const loads = { start: loadAtStart, end: loadAverage() };
    printScaleTable(figures, loads);
    const curves = process.env.SCALE_CURVES;
    if (curves) {
      const day = new Date().toISOString().slice(0, 10);
      writeFileSync(curves, scaleCurvesSvg(figures, `make bench (bench/scale.ts), ${day}, ${scaleConditions(loads)}`));
      console.log(`\ncurves drawn in ${curves}`);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (import.meta.main) await benchScale();
