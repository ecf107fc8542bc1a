/**
 * Tracing's settings from the standard OpenTelemetry variables (DECISIONS.md, "Tracing"): off
 * unless an OTLP endpoint is given. Every bad value is a problem, said before the server starts,
 * as for the server's own variables.
 */
export interface TraceSettings {
  /** Where spans are posted: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, or OTEL_EXPORTER_OTLP_ENDPOINT + `/v1/traces`. */
  readonly endpoint: string;
  readonly protocol: "http/protobuf" | "http/json";
  readonly headers: Readonly<Record<string, string>>;
  /** An export's deadline, ms (OTEL_EXPORTER_OTLP_TRACES_TIMEOUT, OTEL_EXPORTER_OTLP_TIMEOUT). */
  readonly exportTimeoutMs: number;
  readonly serviceName: string;
  /** OTEL_RESOURCE_ATTRIBUTES, with service.name. */
  readonly resource: Readonly<Record<string, string>>;
  readonly sampler: SamplerSetting;
  /** The batch span processor: OTEL_BSP_SCHEDULE_DELAY, _MAX_QUEUE_SIZE, _MAX_EXPORT_BATCH_SIZE. */
  readonly scheduleDelayMs: number;
  readonly maxQueueSize: number;
  readonly maxExportBatchSize: number;
}

export interface SamplerSetting {
  readonly kind: "always_on" | "always_off" | "traceidratio";
  /** Follow the incoming `traceparent`'s sampled flag when there is one (the parentbased_ samplers). */
  readonly parentBased: boolean;
  /** traceidratio's ratio, 0 to 1. */
  readonly ratio: number;
}

/** Every variable tracing reads. */
export const TRACE_VARIABLES = [
  "OTEL_SDK_DISABLED",
  "OTEL_EXPORTER_OTLP_ENDPOINT",
  "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
  "OTEL_EXPORTER_OTLP_PROTOCOL",
  "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL",
  "OTEL_EXPORTER_OTLP_HEADERS",
  "OTEL_EXPORTER_OTLP_TRACES_HEADERS",
  "OTEL_EXPORTER_OTLP_TIMEOUT",
  "OTEL_EXPORTER_OTLP_TRACES_TIMEOUT",
  "OTEL_SERVICE_NAME",
  "OTEL_RESOURCE_ATTRIBUTES",
  "OTEL_TRACES_SAMPLER",
  "OTEL_TRACES_SAMPLER_ARG",
  "OTEL_BSP_SCHEDULE_DELAY",
  "OTEL_BSP_MAX_QUEUE_SIZE",
  "OTEL_BSP_MAX_EXPORT_BATCH_SIZE",
] as const;

const SAMPLERS: Readonly<Record<string, Omit<SamplerSetting, "ratio">>> = {
  always_on: { kind: "always_on", parentBased: false },
  always_off: { kind: "always_off", parentBased: false },
  traceidratio: { kind: "traceidratio", parentBased: false },
  parentbased_always_on: { kind: "always_on", parentBased: true },
  parentbased_always_off: { kind: "always_off", parentBased: true },
  parentbased_traceidratio: { kind: "traceidratio", parentBased: true },
};

export function readTraceSettings(
  env: Readonly<Record<string, string | undefined>>,
  problems: string[],
): TraceSettings | undefined {
  const value = (name: string): string | undefined => {
    const text = env[name]?.trim();
    return text === undefined || text === "" ? undefined : text;
  };
  if (value("OTEL_SDK_DISABLED")?.toLowerCase() === "true") return undefined;
  const tracesEndpoint = value("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT");
  const baseEndpoint = value("OTEL_EXPORTER_OTLP_ENDPOINT");
  if (tracesEndpoint === undefined && baseEndpoint === undefined) return undefined;
  const endpoint = tracesEndpoint ?? `${baseEndpoint!.replace(/\/+$/, "")}/v1/traces`;
  const endpointName =
    tracesEndpoint === undefined ? "OTEL_EXPORTER_OTLP_ENDPOINT" : "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT";
  if (!/^https?:\/\/[^/]/.test(endpoint))
    problems.push(
      `${endpointName} must be an http:// or https:// URL, got ${JSON.stringify(tracesEndpoint ?? baseEndpoint)}`,
    );

  const protocolName = value("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL")
    ? "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"
    : "OTEL_EXPORTER_OTLP_PROTOCOL";
  const protocol = value(protocolName) ?? "http/protobuf";
  if (protocol !== "http/protobuf" && protocol !== "http/json")
    problems.push(
      `${protocolName} must be http/protobuf or http/json${protocol === "grpc" ? " (gRPC is not spoken: point it at the collector's OTLP/HTTP port, 4318)" : ""}, got ${JSON.stringify(protocol)}`,
    );

  const headers = {
    ...keyValues("OTEL_EXPORTER_OTLP_HEADERS", value("OTEL_EXPORTER_OTLP_HEADERS"), problems),
    ...keyValues("OTEL_EXPORTER_OTLP_TRACES_HEADERS", value("OTEL_EXPORTER_OTLP_TRACES_HEADERS"), problems),
  };
  const timeoutName = value("OTEL_EXPORTER_OTLP_TRACES_TIMEOUT")
    ? "OTEL_EXPORTER_OTLP_TRACES_TIMEOUT"
    : "OTEL_EXPORTER_OTLP_TIMEOUT";
  const exportTimeoutMs = whole(timeoutName, value(timeoutName), 10_000, problems);
  const serviceName = value("OTEL_SERVICE_NAME") ?? "rule-server";
  const resource = {
    ...keyValues("OTEL_RESOURCE_ATTRIBUTES", value("OTEL_RESOURCE_ATTRIBUTES"), problems),
    "service.name": serviceName,
  };

  const samplerName = value("OTEL_TRACES_SAMPLER")?.toLowerCase() ?? "parentbased_always_on";
  const sampler = SAMPLERS[samplerName];
  if (sampler === undefined)
    problems.push(
      `OTEL_TRACES_SAMPLER must be one of ${Object.keys(SAMPLERS).join(", ")}, got ${JSON.stringify(samplerName)}`,
    );
  let ratio = 1;
  const ratioText = value("OTEL_TRACES_SAMPLER_ARG");
  if (sampler?.kind === "traceidratio" && ratioText !== undefined) {
    ratio = Number(ratioText);
    if (!Number.isFinite(ratio) || ratio < 0 || ratio > 1)
      problems.push(`OTEL_TRACES_SAMPLER_ARG must be a ratio from 0 to 1, got ${JSON.stringify(ratioText)}`);
  }
  const scheduleDelayMs = whole("OTEL_BSP_SCHEDULE_DELAY", value("OTEL_BSP_SCHEDULE_DELAY"), 5000, problems);
  const maxQueueSize = whole("OTEL_BSP_MAX_QUEUE_SIZE", value("OTEL_BSP_MAX_QUEUE_SIZE"), 2048, problems, 1);
  const maxExportBatchSize = whole(
    "OTEL_BSP_MAX_EXPORT_BATCH_SIZE",
    value("OTEL_BSP_MAX_EXPORT_BATCH_SIZE"),
    512,
    problems,
    1,
  );
  if (maxExportBatchSize > maxQueueSize)
    problems.push("OTEL_BSP_MAX_EXPORT_BATCH_SIZE must not be above OTEL_BSP_MAX_QUEUE_SIZE");
  return {
    endpoint,
    protocol: protocol === "http/json" ? "http/json" : "http/protobuf",
    headers,
    exportTimeoutMs,
    serviceName,
    resource,
    sampler: { ...(sampler ?? SAMPLERS.parentbased_always_on!), ratio },
    scheduleDelayMs,
    maxQueueSize,
    maxExportBatchSize,
  };
}

/** `key=value,key=value`, each part percent-decoded (the W3C Baggage form the specification names). */
function keyValues(name: string, text: string | undefined, problems: string[]): Record<string, string> {
  const pairs: Record<string, string> = {};
  if (text === undefined) return pairs;
  for (const part of text.split(",")) {
    if (part.trim() === "") continue;
    const equals = part.indexOf("=");
    try {
      if (equals <= 0) throw new Error("no key");
      pairs[decodeURIComponent(part.slice(0, equals).trim())] = decodeURIComponent(part.slice(equals + 1).trim());
    } catch {
      // Never the value itself: headers hold credentials.
      problems.push(`${name} must be key=value pairs separated by commas; one part is not`);
    }
  }
  return pairs;
}

function whole(name: string, text: string | undefined, fallback: number, problems: string[], least = 0): number {
  if (text === undefined) return fallback;
  const number = Number(text);
  if (!/^[0-9]+$/.test(text) || number < least) {
    problems.push(
      `${name} must be a whole number${least > 0 ? ` of at least ${least}` : ""}, got ${JSON.stringify(text)}`,
    );
    return fallback;
  }
  return number;
}
