import { familyHeader, labelSet, sampleValue, type MetricFamily } from "./exposition-text.ts";

/** One counter of a family: a plain number that the hot path increments. */
export interface CounterCell {
  value: number;
  /** The rendered label set, made when the cell is created. */
  readonly labels: string;
}

/**
 * A counter family with labels. A cell per label set is created on first use; callers on the
 * request path keep the cells they resolved, so counting is an addition.
 */
export class CounterFamily implements MetricFamily {
  private readonly cells = new Map<string, CounterCell>();

  constructor(
    readonly name: string,
    private readonly help: string,
    private readonly labelNames: readonly string[],
  ) {}

  /** The cell of a label set, in the order of the label names. */
  cell(labelValues: readonly string[]): CounterCell {
    const key = labelValues.join("\u0000");
    let cell = this.cells.get(key);
    if (cell === undefined) {
      cell = { value: 0, labels: labelSet(this.labelNames, labelValues) };
      this.cells.set(key, cell);
    }
    return cell;
  }

  render(lines: string[]): void {
    familyHeader(lines, this.name, "counter", this.help);
    for (const cell of this.cells.values()) lines.push(`${this.name}${cell.labels} ${sampleValue(cell.value)}`);
  }

  /** Every cell as [label set, value], for the process that sums the family over processes. */
  samples(): CounterSample[] {
    return [...this.cells.values()].map((cell) => [cell.labels, cell.value]);
  }

  /** Renders the family with other processes' samples added to it, label set by label set. */
  renderSum(lines: string[], others: readonly (readonly CounterSample[])[]): void {
    const sums = new Map<string, number>();
    for (const cell of this.cells.values()) sums.set(cell.labels, cell.value);
    for (const samples of others) for (const sample of samples) addCounterSample(sums, sample);
    familyHeader(lines, this.name, "counter", this.help);
    for (const [labels, value] of sums) lines.push(`${this.name}${labels} ${sampleValue(value)}`);
  }
}

/** One counter of a family as another process reports it: its rendered label set and its value. */
export type CounterSample = readonly [labels: string, value: number];

/** A counter family whose cells are found by two label values without building a key (the request path). */
export class TwoLabelCounters {
  private readonly byFirst = new Map<string, Map<string | number, CounterCell>>();

  constructor(
    private readonly family: CounterFamily,
    /** Label values put before the two looked up (for example the route). */
    private readonly leading: readonly string[] = [],
  ) {}

  cell(first: string, second: string | number): CounterCell {
    let bySecond = this.byFirst.get(first);
    if (bySecond === undefined) {
      bySecond = new Map();
      this.byFirst.set(first, bySecond);
    }
    let cell = bySecond.get(second);
    if (cell === undefined) {
      cell = this.family.cell([...this.leading, first, String(second)]);
      bySecond.set(second, cell);
    }
    return cell;
  }
}

/** Adds a counter's sample to the total of its label set. */
export function addCounterSample(sums: Map<string, number>, [labels, value]: CounterSample): void {
  sums.set(labels, (sums.get(labels) ?? 0) + value);
}
