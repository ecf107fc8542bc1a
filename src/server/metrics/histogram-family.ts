import { familyHeader, labelSet, sampleValue, type MetricFamily } from "./exposition-text.ts";

/** One histogram of a family: a count per bucket (not cumulative; a scrape adds them up), a sum and a count. */
export class HistogramCell {
  readonly bucketCounts: number[];
  sum = 0;
  count = 0;

  constructor(
    private readonly bounds: readonly number[],
    readonly labels: readonly [string, string][],
  ) {
    this.bucketCounts = new Array<number>(bounds.length + 1).fill(0);
  }

  observe(value: number): void {
    const bounds = this.bounds;
    let index = 0;
    while (index < bounds.length && value > bounds[index]!) index++;
    this.bucketCounts[index]!++;
    this.sum += value;
    this.count++;
  }
}

/** A histogram family; a cell per label set, created on first use. */
export class HistogramFamily implements MetricFamily {
  private readonly cells = new Map<string, HistogramCell>();

  constructor(
    readonly name: string,
    private readonly help: string,
    private readonly labelNames: readonly string[],
    /** Upper bounds, ascending; `+Inf` is added. */
    private readonly bounds: readonly number[],
  ) {}

  cell(labelValues: readonly string[]): HistogramCell {
    const key = labelValues.join("\u0000");
    let cell = this.cells.get(key);
    if (cell === undefined) {
      cell = new HistogramCell(
        this.bounds,
        this.labelNames.map((name, index) => [name, labelValues[index]!]),
      );
      this.cells.set(key, cell);
    }
    return cell;
  }

  render(lines: string[]): void {
    familyHeader(lines, this.name, "histogram", this.help);
    for (const cell of this.cells.values()) {
      const names = cell.labels.map(([name]) => name);
      const values = cell.labels.map(([, value]) => value);
      let cumulative = 0;
      for (let index = 0; index <= this.bounds.length; index++) {
        cumulative += cell.bucketCounts[index]!;
        const bound = index < this.bounds.length ? sampleValue(this.bounds[index]!) : "+Inf";
        lines.push(`${this.name}_bucket${labelSet([...names, "le"], [...values, bound])} ${cumulative}`);
      }
      const labels = labelSet(names, values);
      lines.push(`${this.name}_sum${labels} ${sampleValue(cell.sum)}`, `${this.name}_count${labels} ${cell.count}`);
    }
  }
}
