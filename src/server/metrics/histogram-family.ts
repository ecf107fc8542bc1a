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
    this.renderCells(lines, this.cells.values());
  }

  /** Every cell as plain data, for the process that sums the family over processes. */
  samples(): HistogramSample[] {
    return [...this.cells.values()].map((cell) => ({
      labels: cell.labels,
      bucketCounts: [...cell.bucketCounts],
      sum: cell.sum,
      count: cell.count,
    }));
  }

  /** Renders the family with other processes' samples added to it, bucket by bucket, label set by label set. */
  renderSum(lines: string[], others: readonly (readonly HistogramSample[])[]): void {
    const sums = new Map<string, HistogramTotal>();
    for (const sample of [...this.samples(), ...others.flat()]) addHistogramSample(sums, sample);
    this.renderCells(lines, sums.values());
  }

  private renderCells(lines: string[], cells: Iterable<HistogramSample>): void {
    familyHeader(lines, this.name, "histogram", this.help);
    for (const cell of cells) {
      const names = cell.labels.map(([name]) => name);
      const values = cell.labels.map(([, value]) => value);
      let cumulative = 0;
      for (let index = 0; index <= this.bounds.length; index++) {
        cumulative += cell.bucketCounts[index] ?? 0;
        const bound = index < this.bounds.length ? sampleValue(this.bounds[index]!) : "+Inf";
        lines.push(`${this.name}_bucket${labelSet([...names, "le"], [...values, bound])} ${cumulative}`);
      }
      const labels = labelSet(names, values);
      lines.push(`${this.name}_sum${labels} ${sampleValue(cell.sum)}`, `${this.name}_count${labels} ${cell.count}`);
    }
  }
}

/** A histogram's totals while samples are added to it (addHistogramSample). */
export interface HistogramTotal {
  readonly labels: HistogramSample["labels"];
  bucketCounts: number[];
  sum: number;
  count: number;
}

/** Adds a sample to the totals of its label set, bucket by bucket (the totals' arrays are their own copies). */
export function addHistogramSample(sums: Map<string, HistogramTotal>, sample: HistogramSample): void {
  const key = sample.labels.map(([, value]) => value).join("\u0000");
  const total = sums.get(key);
  if (total === undefined)
    sums.set(key, {
      labels: sample.labels,
      bucketCounts: [...sample.bucketCounts],
      sum: sample.sum,
      count: sample.count,
    });
  else {
    sample.bucketCounts.forEach(
      (count, index) => (total.bucketCounts[index] = (total.bucketCounts[index] ?? 0) + count),
    );
    total.sum += sample.sum;
    total.count += sample.count;
  }
}

/** One histogram of a family as plain data: label names and values, a count per bucket (not cumulative), sum and count. */
export interface HistogramSample {
  readonly labels: readonly (readonly [string, string])[];
  readonly bucketCounts: readonly number[];
  readonly sum: number;
  readonly count: number;
}
