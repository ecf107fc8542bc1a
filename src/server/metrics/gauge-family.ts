import { familyHeader, labelSet, sampleValue, type MetricFamily } from "./exposition-text.ts";

/** A gauge read when scraped: the value comes from a function, not from counting. */
export class GaugeFamily implements MetricFamily {
  constructor(
    readonly name: string,
    private readonly help: string,
    private readonly read: () => number,
    private readonly labels: Readonly<Record<string, string>> = {},
    private readonly type: "gauge" | "counter" = "gauge",
  ) {}

  render(lines: string[]): void {
    familyHeader(lines, this.name, this.type, this.help);
    lines.push(
      `${this.name}${labelSet(Object.keys(this.labels), Object.values(this.labels))} ${sampleValue(this.read())}`,
    );
  }
}
