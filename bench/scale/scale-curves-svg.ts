/**
 * The scale bench's figures as a picture (the README shows it): four panels against the number of
 * rules on a log scale, the sizes that grow by rulesets (example, M, L) joined as a curve and the
 * size with one wide ruleset (W) as a point of its own.
 */
import type { SizeFigures } from "./measure-size.ts";

const MIB = 1024 * 1024;

interface Panel {
  readonly title: string;
  readonly value: (figures: SizeFigures) => number;
  /** A second, dashed curve: what the issue's targets allow at each size. */
  readonly limit?: (figures: SizeFigures) => number;
  readonly format: (value: number) => string;
}

const PANELS: readonly Panel[] = [
  { title: "start-up to ready (s)", value: (f) => f.startupMs / 1000, format: (v) => v.toFixed(1) },
  {
    title: "RSS settled (MiB); dashed: 3x bundles + 100 MiB",
    value: (f) => f.settled.residentMiB,
    limit: (f) => (3 * f.directory.bundleBytes) / MIB + 100,
    format: (v) => v.toFixed(0),
  },
  { title: "SIGHUP reload, one file changed (s)", value: (f) => f.reloadOneMs / 1000, format: (v) => v.toFixed(2) },
  {
    title: "req/s of one ruleset / the example's",
    value: (f) => f.throughput.ratio,
    format: (v) => v.toFixed(2),
  },
];

const WIDTH = 360;
const HEIGHT = 220;
const MARGIN = { left: 48, right: 16, top: 28, bottom: 36 };
const xmlText = (text: string): string => text.replace(/&/g, "&amp;").replace(/</g, "&lt;");

export function scaleCurvesSvg(sizes: readonly SizeFigures[], caption: string): string {
  const rules = sizes.map((figures) => figures.directory.rules);
  const low = Math.log10(Math.min(...rules) / 2);
  const high = Math.log10(Math.max(...rules) * 2);
  const x = (count: number): number =>
    MARGIN.left + ((Math.log10(count) - low) / (high - low)) * (WIDTH - MARGIN.left - MARGIN.right);
  const panels = PANELS.map((panel, index) => {
    const values = sizes.flatMap((figures) => [panel.value(figures), panel.limit?.(figures) ?? 0]);
    const top = Math.max(...values) * 1.15 || 1;
    const y = (value: number): number => HEIGHT - MARGIN.bottom - (value / top) * (HEIGHT - MARGIN.top - MARGIN.bottom);
    const grown = sizes.filter((figures) => figures.size.wideRules === undefined);
    const line = (of: (figures: SizeFigures) => number, style: string): string =>
      `<polyline fill="none" ${style} points="${grown.map((f) => `${x(f.directory.rules).toFixed(1)},${y(of(f)).toFixed(1)}`).join(" ")}"/>`;
    const points = sizes
      .map((figures) => {
        const px = x(figures.directory.rules);
        const py = y(panel.value(figures));
        const wide = figures.size.wideRules !== undefined;
        const mark = wide
          ? `<rect x="${(px - 4).toFixed(1)}" y="${(py - 4).toFixed(1)}" width="8" height="8" fill="#c0392b" transform="rotate(45 ${px.toFixed(1)} ${py.toFixed(1)})"/>`
          : `<circle cx="${px.toFixed(1)}" cy="${py.toFixed(1)}" r="3.5" fill="#1f5f99"/>`;
        return `${mark}<text x="${px.toFixed(1)}" y="${(py - 8).toFixed(1)}" font-size="10" text-anchor="middle">${xmlText(figures.size.name)} ${panel.format(panel.value(figures))}</text>`;
      })
      .join("");
    const ticks = [100, 1_000, 10_000, 100_000]
      .filter((count) => Math.log10(count) > low && Math.log10(count) < high)
      .map(
        (count) =>
          `<line x1="${x(count).toFixed(1)}" x2="${x(count).toFixed(1)}" y1="${HEIGHT - MARGIN.bottom}" y2="${HEIGHT - MARGIN.bottom + 4}" stroke="#555"/><text x="${x(count).toFixed(1)}" y="${HEIGHT - MARGIN.bottom + 15}" font-size="10" text-anchor="middle">${count.toLocaleString("en-US")}</text>`,
      )
      .join("");
    const column = index % 2;
    const row = Math.floor(index / 2);
    return `<g transform="translate(${column * WIDTH},${row * HEIGHT})">
<text x="${MARGIN.left}" y="16" font-size="12" font-weight="bold">${xmlText(panel.title)}</text>
<line x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${HEIGHT - MARGIN.bottom}" y2="${HEIGHT - MARGIN.bottom}" stroke="#555"/>
<line x1="${MARGIN.left}" x2="${MARGIN.left}" y1="${MARGIN.top}" y2="${HEIGHT - MARGIN.bottom}" stroke="#555"/>
<text x="${MARGIN.left - 6}" y="${y(top / 1.15).toFixed(1)}" font-size="10" text-anchor="end">${panel.format(top / 1.15)}</text>
<text x="${MARGIN.left - 6}" y="${HEIGHT - MARGIN.bottom}" font-size="10" text-anchor="end">0</text>
${ticks}<text x="${(WIDTH + MARGIN.left) / 2}" y="${HEIGHT - 6}" font-size="10" text-anchor="middle">rules (log scale)</text>
${panel.limit ? line(panel.limit, 'stroke="#888" stroke-dasharray="4 3"') : ""}${line(panel.value, 'stroke="#1f5f99" stroke-width="2"')}${points}
</g>`;
  });
  // The caption's clauses one to a line: it is longer than the picture is wide.
  const captionLines = caption.split("; ");
  const height = Math.ceil(PANELS.length / 2) * HEIGHT + 8 + 14 * captionLines.length;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${2 * WIDTH}" height="${height}" viewBox="0 0 ${2 * WIDTH} ${height}" font-family="sans-serif">
<rect width="100%" height="100%" fill="white"/>
${panels.join("\n")}
${captionLines.map((line, index) => `<text x="8" y="${height - 8 - 14 * (captionLines.length - 1 - index)}" font-size="10">${xmlText(line)}</text>`).join("\n")}
</svg>
`;
}
