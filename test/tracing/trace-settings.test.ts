import { describe, expect, test } from "bun:test";
import { readTraceSettings } from "../../src/tracing/trace-settings.ts";

const read = (env: Record<string, string>) => {
  const problems: string[] = [];
  return { settings: readTraceSettings(env, problems), problems };
};

describe("the OTEL_ variables", () => {
  test("without an endpoint tracing is off; OTEL_SDK_DISABLED turns it off with one", () => {
    expect(read({})).toEqual({ settings: undefined, problems: [] });
    expect(read({ OTEL_SERVICE_NAME: "x" }).settings).toBeUndefined();
    expect(read({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_SDK_DISABLED: "true" }).settings).toBeUndefined();
  });

  test("the defaults: protobuf to <endpoint>/v1/traces, parent-based always-on, the batch processor's sizes", () => {
    expect(read({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/" })).toEqual({
      settings: {
        endpoint: "http://collector:4318/v1/traces",
        protocol: "http/protobuf",
        headers: {},
        exportTimeoutMs: 10_000,
        serviceName: "rule-server",
        resource: { "service.name": "rule-server" },
        sampler: { kind: "always_on", parentBased: true, ratio: 1 },
        scheduleDelayMs: 5000,
        maxQueueSize: 2048,
        maxExportBatchSize: 512,
      },
      problems: [],
    });
  });

  test("the traces variables win over the general ones; headers and resource attributes are percent-decoded pairs", () => {
    const { settings, problems } = read({
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://traces.example/v1/traces",
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf",
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/json",
      OTEL_EXPORTER_OTLP_HEADERS: "authorization=Bearer%20abc,x-tenant=a",
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: "x-tenant=b",
      OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: "2500",
      OTEL_SERVICE_NAME: "rules-eu",
      OTEL_RESOURCE_ATTRIBUTES: "deployment.environment=prod,service.name=ignored",
      OTEL_TRACES_SAMPLER: "traceidratio",
      OTEL_TRACES_SAMPLER_ARG: "0.25",
      OTEL_BSP_SCHEDULE_DELAY: "100",
      OTEL_BSP_MAX_QUEUE_SIZE: "10",
      OTEL_BSP_MAX_EXPORT_BATCH_SIZE: "5",
    });
    expect(problems).toEqual([]);
    expect(settings).toMatchObject({
      endpoint: "https://traces.example/v1/traces",
      protocol: "http/json",
      headers: { authorization: "Bearer abc", "x-tenant": "b" },
      exportTimeoutMs: 2500,
      resource: { "deployment.environment": "prod", "service.name": "rules-eu" },
      sampler: { kind: "traceidratio", parentBased: false, ratio: 0.25 },
      scheduleDelayMs: 100,
      maxQueueSize: 10,
      maxExportBatchSize: 5,
    });
  });

  test("what cannot be used is said, a header's value never", () => {
    const { problems } = read({
      OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318",
      OTEL_EXPORTER_OTLP_PROTOCOL: "grpc",
      OTEL_EXPORTER_OTLP_HEADERS: "secret-token-value",
      OTEL_TRACES_SAMPLER: "sometimes",
      OTEL_BSP_MAX_QUEUE_SIZE: "0",
    });
    expect(problems).toEqual([
      'OTEL_EXPORTER_OTLP_ENDPOINT must be an http:// or https:// URL, got "collector:4318"',
      'OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json (gRPC is not spoken: point it at the collector\'s OTLP/HTTP port, 4318), got "grpc"',
      "OTEL_EXPORTER_OTLP_HEADERS must be key=value pairs separated by commas; one part is not",
      'OTEL_TRACES_SAMPLER must be one of always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off, parentbased_traceidratio, got "sometimes"',
      'OTEL_BSP_MAX_QUEUE_SIZE must be a whole number of at least 1, got "0"',
    ]);
    expect(
      read({
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://c",
        OTEL_BSP_MAX_QUEUE_SIZE: "4",
        OTEL_BSP_MAX_EXPORT_BATCH_SIZE: "8",
      }).problems,
    ).toEqual(["OTEL_BSP_MAX_EXPORT_BATCH_SIZE must not be above OTEL_BSP_MAX_QUEUE_SIZE"]);
    expect(problems.join(" ")).not.toContain("secret-token-value");
    expect(
      read({
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://c",
        OTEL_TRACES_SAMPLER: "traceidratio",
        OTEL_TRACES_SAMPLER_ARG: "2",
      }).problems,
    ).toEqual(['OTEL_TRACES_SAMPLER_ARG must be a ratio from 0 to 1, got "2"']);
  });
});
