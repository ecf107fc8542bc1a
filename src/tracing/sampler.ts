import type { IncomingTrace } from "./incoming-trace.ts";
import type { SamplerSetting } from "./trace-settings.ts";

/**
 * Whether a new server span is recorded and exported (OTEL_TRACES_SAMPLER): the parentbased_
 * samplers follow the caller's sampled flag when a `traceparent` came; traceidratio keeps a trace
 * when the low 56 bits of its id, as a fraction, fall below the ratio, so every service with the
 * same ratio keeps the same traces.
 */
export function sampled(setting: SamplerSetting, traceId: string, incoming: IncomingTrace | undefined): boolean {
  if (setting.parentBased && incoming !== undefined) return incoming.sampled;
  switch (setting.kind) {
    case "always_on":
      return true;
    case "always_off":
      return false;
    case "traceidratio":
      return Number.parseInt(traceId.slice(18), 16) / 2 ** 56 < setting.ratio;
  }
}
