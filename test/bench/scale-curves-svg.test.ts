import { expect, test } from "bun:test";
import type { SizeFigures } from "../../bench/scale/measure-size.ts";
import { scaleCurvesSvg } from "../../bench/scale/scale-curves-svg.ts";

/** The scale bench's picture: one panel per figure, every size in each, the caption, and well-formed SVG. */
function size(name: string, rules: number, wide: boolean, startupMs: number): SizeFigures {
  return {
    size: { name, description: name, ...(wide ? { wideRules: rules } : { rulesets: rules / 30 }) },
    directory: { rulesets: wide ? 4 : rules / 30, rules, bundleBytes: rules * 1400 },
    startupMs,
    atReady: { residentMiB: 100, peakMiB: 120 },
    settled: { residentMiB: 90, peakMiB: 120 },
    reloadAllMs: 100,
    reloadOneMs: 50,
    throughput: { example: [], sized: [], ratio: 0.95, ratios: [0.95] },
    check: { ms: 1000, passed: true, summary: "" },
  } as unknown as SizeFigures;
}

test("four panels against rules on a log scale, every size in each, the wide size marked apart", () => {
  const svg = scaleCurvesSvg(
    [
      size("example", 68, false, 1000),
      size("M", 2978, false, 2500),
      size("L", 29978, false, 9000),
      size("W", 10068, true, 3000),
    ],
    "a caption & more",
  );
  expect(svg.startsWith("<svg")).toBe(true);
  expect(svg.match(/<g /g)).toHaveLength(4);
  expect(svg).toContain("start-up to ready (s)");
  expect(svg).toContain("L 9.0");
  expect(svg).toContain("W 3.0");
  expect(svg.match(/<rect x=/g)).toHaveLength(4); // the wide size, once per panel
  expect(svg).toContain("a caption &amp; more");
  expect(svg).toContain('stroke-dasharray="4 3"'); // the memory target
  // Balanced tags: every opened group is closed.
  expect(svg.match(/<g /g)!.length).toBe(svg.match(/<\/g>/g)!.length);
});
