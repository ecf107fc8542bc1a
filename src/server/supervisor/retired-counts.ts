import { addCounterSample, type CounterSample } from "../metrics/counter-family.ts";
import { addHistogramSample, type HistogramSample, type HistogramTotal } from "../metrics/histogram-family.ts";
import type { MetricsState } from "../metrics/server-metrics.ts";

/**
 * The last counts reported by serving processes that have stopped. They stay in the server's sums,
 * so that its counters never go down when a process is replaced (Prometheus would read a reset);
 * what a process counted after its last report is lost with it. Kept summed: one entry per label
 * set however many processes stopped.
 */
export class RetiredCounts {
  private readonly counters = new Map<string, Map<string, number>>();
  private readonly histograms = new Map<string, Map<string, HistogramTotal>>();

  add(state: MetricsState): void {
    for (const [family, samples] of Object.entries(state.counters)) {
      const sums = this.counters.get(family) ?? new Map<string, number>();
      this.counters.set(family, sums);
      for (const sample of samples) addCounterSample(sums, sample);
    }
    for (const [family, samples] of Object.entries(state.histograms)) {
      const sums = this.histograms.get(family) ?? new Map();
      this.histograms.set(family, sums);
      for (const sample of samples) addHistogramSample(sums, sample);
    }
  }

  /** As one more process's counts, holding no memory (the processes are gone). */
  state(): MetricsState {
    const counters: Record<string, CounterSample[]> = {};
    for (const [family, sums] of this.counters) counters[family] = [...sums];
    const histograms: Record<string, HistogramSample[]> = {};
    for (const [family, sums] of this.histograms) histograms[family] = [...sums.values()];
    return { counters, histograms, residentBytes: 0 };
  }
}
