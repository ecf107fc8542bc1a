import {
  int64Value,
  type OtlpAttributeValue,
  OtlpDecodeError,
  type OtlpSpan,
  type OtlpTraceExport,
} from "./otlp-trace-export.ts";

/**
 * Decodes an ExportTraceServiceRequest in OTLP/JSON: members in lowerCamelCase, trace and span ids
 * as hex strings (OTLP's exception to protobuf's JSON mapping, which would have base64), other
 * bytes as base64, 64-bit integers as strings or numbers, enums as numbers. Members it does not
 * know are ignored, as the OTLP specification asks of receivers.
 */
export function decodeJsonTraceRequest(body: Uint8Array): OtlpTraceExport {
  let request: unknown;
  try {
    request = JSON.parse(new TextDecoder().decode(body));
  } catch (error) {
    throw new OtlpDecodeError(`the body is not JSON: ${(error as Error).message}`);
  }
  const resource: Record<string, OtlpAttributeValue> = {};
  const spans: OtlpSpan[] = [];
  for (const resourceSpans of list(member(request, "resourceSpans"), "resourceSpans")) {
    Object.assign(resource, keyValues(member(member(resourceSpans, "resource"), "attributes")));
    for (const scopeSpans of list(member(resourceSpans, "scopeSpans"), "scopeSpans")) {
      for (const span of list(member(scopeSpans, "spans"), "spans")) spans.push(readSpan(span));
    }
  }
  return { resource, spans };
}

function readSpan(span: unknown): OtlpSpan {
  const parentSpanId = optionalString(member(span, "parentSpanId"), "parentSpanId");
  const traceState = optionalString(member(span, "traceState"), "traceState");
  const status = member(span, "status");
  const statusMessage = optionalString(member(status, "message"), "status.message");
  return {
    traceId: hexId(member(span, "traceId"), "traceId"),
    spanId: hexId(member(span, "spanId"), "spanId"),
    ...(parentSpanId === "" ? {} : { parentSpanId: hexId(parentSpanId, "parentSpanId") }),
    ...(traceState === "" ? {} : { traceState }),
    name: optionalString(member(span, "name"), "name"),
    kind: enumNumber(member(span, "kind"), "kind"),
    startTimeUnixNano: uint64(member(span, "startTimeUnixNano"), "startTimeUnixNano"),
    endTimeUnixNano: uint64(member(span, "endTimeUnixNano"), "endTimeUnixNano"),
    attributes: keyValues(member(span, "attributes")),
    status: {
      code: enumNumber(member(status, "code"), "status.code"),
      ...(statusMessage === "" ? {} : { message: statusMessage }),
    },
  };
}

function keyValues(value: unknown): Record<string, OtlpAttributeValue> {
  const entries: Record<string, OtlpAttributeValue> = {};
  for (const keyValue of list(value, "attributes")) {
    entries[optionalString(member(keyValue, "key"), "key")] = anyValue(member(keyValue, "value"));
  }
  return entries;
}

function anyValue(value: unknown): OtlpAttributeValue {
  if (value === undefined || value === null) return null;
  if (typeof value !== "object") throw new OtlpDecodeError(`an AnyValue is ${JSON.stringify(value)}, not an object`);
  const [kind, inner] = Object.entries(value)[0] ?? [];
  switch (kind) {
    case undefined:
      return null;
    case "stringValue":
      if (typeof inner !== "string") throw new OtlpDecodeError("stringValue is not a string");
      return inner;
    case "boolValue":
      if (typeof inner !== "boolean") throw new OtlpDecodeError("boolValue is not a boolean");
      return inner;
    case "intValue":
      return int64Value(int64(inner, "intValue"));
    case "doubleValue":
      // Protobuf's JSON mapping writes NaN and the infinities as strings.
      if (typeof inner !== "number" && typeof inner !== "string")
        throw new OtlpDecodeError("doubleValue is not a number");
      return Number(inner);
    case "arrayValue":
      return list(member(inner, "values"), "arrayValue.values").map(anyValue);
    case "kvlistValue":
      return keyValues(member(inner, "values"));
    case "bytesValue":
      if (typeof inner !== "string") throw new OtlpDecodeError("bytesValue is not a base64 string");
      return new Uint8Array(Buffer.from(inner, "base64"));
    default:
      throw new OtlpDecodeError(`an AnyValue holds ${kind}, which OTLP does not define`);
  }
}

/** A member of an object; an absent message reads as empty, as in protobuf. */
function member(value: unknown, name: string): unknown {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "object" || Array.isArray(value)) {
    throw new OtlpDecodeError(`expected an object holding ${name}, got ${JSON.stringify(value)}`);
  }
  return (value as Record<string, unknown>)[name];
}

function list(value: unknown, name: string): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new OtlpDecodeError(`${name} is not an array`);
  return value;
}

function optionalString(value: unknown, name: string): string {
  if (value === undefined || value === null) return "";
  if (typeof value !== "string") throw new OtlpDecodeError(`${name} is not a string`);
  return value;
}

function hexId(value: unknown, name: string): string {
  const id = optionalString(value, name);
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(id)) {
    throw new OtlpDecodeError(`${name} ${JSON.stringify(id)} is not hex (OTLP/JSON does not use base64 for ids)`);
  }
  return id.toLowerCase();
}

function enumNumber(value: unknown, name: string): number {
  if (value === undefined || value === null) return 0;
  if (!Number.isInteger(value))
    throw new OtlpDecodeError(`${name} is ${JSON.stringify(value)}: OTLP/JSON enums are numbers`);
  return value as number;
}

function int64(value: unknown, name: string): bigint {
  if (value === undefined || value === null) return 0n;
  if ((typeof value === "number" && Number.isInteger(value)) || (typeof value === "string" && /^-?\d+$/.test(value))) {
    return BigInt(value);
  }
  throw new OtlpDecodeError(`${name} is ${JSON.stringify(value)}, not an integer`);
}

function uint64(value: unknown, name: string): bigint {
  const integer = int64(value, name);
  if (integer < 0n) throw new OtlpDecodeError(`${name} is negative`);
  return integer;
}
