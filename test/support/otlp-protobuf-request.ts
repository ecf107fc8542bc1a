import {
  int64Value,
  type OtlpAttributeValue,
  OtlpDecodeError,
  type OtlpSpan,
  type OtlpTraceExport,
} from "./otlp-trace-export.ts";

/**
 * Decodes an ExportTraceServiceRequest in protobuf's wire format. Field numbers are those of
 * opentelemetry-proto's collector/trace/v1, trace/v1, resource/v1 and common/v1 messages;
 * fields it does not know are skipped, as protobuf readers do.
 */
export function decodeProtobufTraceRequest(body: Uint8Array): OtlpTraceExport {
  const resource: Record<string, OtlpAttributeValue> = {};
  const spans: OtlpSpan[] = [];
  for (const field of wireFields(body)) {
    // ExportTraceServiceRequest.resource_spans = 1
    if (field.number === 1) readResourceSpans(bytesOf(field), resource, spans);
  }
  return { resource, spans };
}

function readResourceSpans(message: Uint8Array, resource: Record<string, OtlpAttributeValue>, spans: OtlpSpan[]) {
  for (const field of wireFields(message)) {
    if (field.number === 1) {
      // ResourceSpans.resource = 1; Resource.attributes = 1
      for (const inner of wireFields(bytesOf(field))) if (inner.number === 1) addKeyValue(resource, bytesOf(inner));
    } else if (field.number === 2) {
      // ResourceSpans.scope_spans = 2; ScopeSpans.spans = 2
      for (const inner of wireFields(bytesOf(field))) if (inner.number === 2) spans.push(readSpan(bytesOf(inner)));
    }
  }
}

function readSpan(message: Uint8Array): OtlpSpan {
  let traceId = "";
  let spanId = "";
  let parentSpanId = "";
  let traceState = "";
  let name = "";
  let kind = 0;
  let startTimeUnixNano = 0n;
  let endTimeUnixNano = 0n;
  const attributes: Record<string, OtlpAttributeValue> = {};
  let status: OtlpSpan["status"] = { code: 0 };
  for (const field of wireFields(message)) {
    switch (field.number) {
      case 1:
        traceId = hex(bytesOf(field));
        break;
      case 2:
        spanId = hex(bytesOf(field));
        break;
      case 3:
        traceState = text(bytesOf(field));
        break;
      case 4:
        parentSpanId = hex(bytesOf(field));
        break;
      case 5:
        name = text(bytesOf(field));
        break;
      case 6:
        kind = Number(varintOf(field));
        break;
      case 7:
        startTimeUnixNano = fixed64Of(field).getBigUint64(0, true);
        break;
      case 8:
        endTimeUnixNano = fixed64Of(field).getBigUint64(0, true);
        break;
      case 9:
        addKeyValue(attributes, bytesOf(field));
        break;
      case 15:
        status = readStatus(bytesOf(field));
        break;
    }
  }
  return {
    traceId,
    spanId,
    ...(parentSpanId === "" ? {} : { parentSpanId }),
    ...(traceState === "" ? {} : { traceState }),
    name,
    kind,
    startTimeUnixNano,
    endTimeUnixNano,
    attributes,
    status,
  };
}

function readStatus(message: Uint8Array): OtlpSpan["status"] {
  let code = 0;
  let statusMessage = "";
  for (const field of wireFields(message)) {
    // Status.message = 2, Status.code = 3 (1 is reserved)
    if (field.number === 2) statusMessage = text(bytesOf(field));
    else if (field.number === 3) code = Number(varintOf(field));
  }
  return statusMessage === "" ? { code } : { code, message: statusMessage };
}

/** KeyValue: key = 1, value = 2. */
function addKeyValue(into: Record<string, OtlpAttributeValue>, message: Uint8Array): void {
  let key = "";
  let value: OtlpAttributeValue = null;
  for (const field of wireFields(message)) {
    if (field.number === 1) key = text(bytesOf(field));
    else if (field.number === 2) value = readAnyValue(bytesOf(field));
  }
  into[key] = value;
}

/** AnyValue's oneof: string 1, bool 2, int64 3, double 4, ArrayValue 5, KeyValueList 6, bytes 7. */
function readAnyValue(message: Uint8Array): OtlpAttributeValue {
  let value: OtlpAttributeValue = null;
  for (const field of wireFields(message)) {
    switch (field.number) {
      case 1:
        value = text(bytesOf(field));
        break;
      case 2:
        value = Number(varintOf(field)) !== 0;
        break;
      case 3:
        value = int64Value(BigInt.asIntN(64, BigInt(varintOf(field))));
        break;
      case 4:
        value = fixed64Of(field).getFloat64(0, true);
        break;
      case 5: {
        // ArrayValue.values = 1
        const values: OtlpAttributeValue[] = [];
        for (const inner of wireFields(bytesOf(field)))
          if (inner.number === 1) values.push(readAnyValue(bytesOf(inner)));
        value = values;
        break;
      }
      case 6: {
        // KeyValueList.values = 1
        const entries: Record<string, OtlpAttributeValue> = {};
        for (const inner of wireFields(bytesOf(field))) if (inner.number === 1) addKeyValue(entries, bytesOf(inner));
        value = entries;
        break;
      }
      case 7:
        value = bytesOf(field).slice();
        break;
    }
  }
  return value;
}

/** One field of a message as the wire format carries it. */
type WireField =
  | { readonly number: number; readonly wireType: "varint"; readonly value: number | bigint }
  | { readonly number: number; readonly wireType: "i64" | "len" | "i32"; readonly bytes: Uint8Array };

/** The fields of a message in order: tag (field number, wire type), then the value the wire type says. */
function wireFields(message: Uint8Array): WireField[] {
  const fields: WireField[] = [];
  const cursor = { message, at: 0 };
  while (cursor.at < message.length) {
    const tag = Number(readVarint(cursor));
    const number = Math.floor(tag / 8);
    const wireType = tag % 8;
    if (number === 0) throw new OtlpDecodeError(`field number 0 at byte ${cursor.at}`);
    if (wireType === 0) fields.push({ number, wireType: "varint", value: readVarint(cursor) });
    else if (wireType === 1) fields.push({ number, wireType: "i64", bytes: take(cursor, 8) });
    else if (wireType === 2) fields.push({ number, wireType: "len", bytes: take(cursor, Number(readVarint(cursor))) });
    else if (wireType === 5) fields.push({ number, wireType: "i32", bytes: take(cursor, 4) });
    // 3 and 4 are proto2's groups, which no OTLP message has.
    else throw new OtlpDecodeError(`wire type ${wireType} of field ${number} is not one OTLP uses`);
  }
  return fields;
}

interface Cursor {
  readonly message: Uint8Array;
  at: number;
}

/**
 * A base-128 varint of up to ten bytes, least significant group first: a number while it fits
 * in seven bytes (49 bits, exact in a double), a bigint beyond (a BigInt for every tag and length
 * made decoding twice as slow).
 */
function readVarint(cursor: Cursor): number | bigint {
  const start = cursor.at;
  let value = 0;
  for (let scale = 1; cursor.at < start + 7; scale *= 128) {
    const byte = cursor.message[cursor.at++];
    if (byte === undefined) throw new OtlpDecodeError("the message ends inside a varint");
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) return value;
  }
  cursor.at = start;
  let big = 0n;
  for (let shift = 0n; shift < 70n; shift += 7n) {
    const byte = cursor.message[cursor.at++];
    if (byte === undefined) throw new OtlpDecodeError("the message ends inside a varint");
    big |= BigInt(byte & 0x7f) << shift;
    if (byte < 0x80) return BigInt.asUintN(64, big);
  }
  throw new OtlpDecodeError("a varint longer than ten bytes");
}

function take(cursor: Cursor, length: number): Uint8Array {
  if (cursor.at + length > cursor.message.length) {
    throw new OtlpDecodeError(`a field of ${length} bytes runs past the end of its message`);
  }
  const bytes = cursor.message.subarray(cursor.at, cursor.at + length);
  cursor.at += length;
  return bytes;
}

function bytesOf(field: WireField): Uint8Array {
  if (field.wireType !== "len") throw wrongWireType(field, "len");
  return field.bytes;
}

function varintOf(field: WireField): number | bigint {
  if (field.wireType !== "varint") throw wrongWireType(field, "varint");
  return field.value;
}

function fixed64Of(field: WireField): DataView {
  if (field.wireType !== "i64") throw wrongWireType(field, "i64");
  return new DataView(field.bytes.buffer, field.bytes.byteOffset, 8);
}

function wrongWireType(field: WireField, expected: string): OtlpDecodeError {
  return new OtlpDecodeError(`field ${field.number} came as ${field.wireType}, OTLP declares it ${expected}`);
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

function text(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new OtlpDecodeError("a string field is not UTF-8");
  }
}

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

function hex(bytes: Uint8Array): string {
  let text = "";
  for (const byte of bytes) text += HEX[byte];
  return text;
}
