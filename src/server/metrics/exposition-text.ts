/**
 * The pieces of the Prometheus text exposition format 0.0.4: HELP and TYPE lines, label sets and
 * sample values. Only a scrape renders; counting never touches text.
 */
export const EXPOSITION_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

type MetricType = "counter" | "gauge" | "histogram";

/** One metric family: it appends its HELP, TYPE and sample lines. */
export interface MetricFamily {
  render(lines: string[]): void;
}

/** `# HELP` and `# TYPE` of a family; HELP text escapes backslash and newline. */
export function familyHeader(lines: string[], name: string, type: MetricType, help: string): void {
  lines.push(`# HELP ${name} ${help.replace(/\\/g, "\\\\").replace(/\n/g, "\\n")}`, `# TYPE ${name} ${type}`);
}

/** A label value with backslash, double quote and newline escaped. */
function escapeLabelValue(value: string): string {
  return value.replace(/[\\"\n]/g, (character) => (character === "\\" ? "\\\\" : character === '"' ? '\\"' : "\\n"));
}

/** `{a="x",b="y"}`, or "" without labels; rendered once per label set, when it is first used. */
export function labelSet(names: readonly string[], values: readonly string[]): string {
  if (names.length === 0) return "";
  return `{${names.map((name, index) => `${name}="${escapeLabelValue(values[index]!)}"`).join(",")}}`;
}

/** A sample value: integers and decimals as JavaScript writes them, infinities and NaN as the format spells them. */
export function sampleValue(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Infinity) return "+Inf";
  if (value === -Infinity) return "-Inf";
  return String(value);
}
