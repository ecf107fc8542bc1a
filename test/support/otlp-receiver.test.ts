import { afterEach, describe, expect, test } from "bun:test";
import { type OtlpReceiver, type OtlpReceiverOptions, startOtlpReceiver } from "./otlp-receiver.ts";
import type { OtlpTraceExport } from "./otlp-trace-export.ts";

// A small protobuf writer, so that the test builds its ExportTraceServiceRequest by hand from the
// field numbers of opentelemetry-proto, independent of the receiver's reader.
type Bytes = Uint8Array;
const concat = (...parts: Bytes[]): Uint8Array<ArrayBuffer> => new Uint8Array(Buffer.concat(parts));
function varint(value: bigint | number): Bytes {
  let rest = BigInt.asUintN(64, BigInt(value));
  const bytes: number[] = [];
  do {
    const low = Number(rest & 0x7fn);
    rest >>= 7n;
    bytes.push(rest === 0n ? low : low | 0x80);
  } while (rest !== 0n);
  return new Uint8Array(bytes);
}
const tag = (field: number, wireType: number) => varint((field << 3) | wireType);
const varintField = (field: number, value: bigint | number) => concat(tag(field, 0), varint(value));
const lengthField = (field: number, bytes: Bytes) => concat(tag(field, 2), varint(bytes.length), bytes);
const stringField = (field: number, text: string) => lengthField(field, new TextEncoder().encode(text));
const hexField = (field: number, hex: string) => lengthField(field, new Uint8Array(Buffer.from(hex, "hex")));
function fixed64Field(field: number, value: bigint): Bytes {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, value, true);
  return concat(tag(field, 1), bytes);
}
function doubleField(field: number, value: number): Bytes {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setFloat64(0, value, true);
  return concat(tag(field, 1), bytes);
}
const keyValue = (field: number, key: string, anyValue: Bytes) =>
  lengthField(field, concat(stringField(1, key), lengthField(2, anyValue)));

const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT_ID = "00f067aa0ba902b7";
const SPAN_ID = "a1b2c3d4e5f60718";
const CHILD_ID = "0102030405060708";
const START = 1_764_300_000_123_456_789n;
const END = 1_764_300_000_125_000_000n;

/** The request the protobuf and the JSON below both encode, as the receiver should keep it. */
const EXPECTED: OtlpTraceExport = {
  resource: { "service.name": "rule-server", "process.pid": 4242 },
  spans: [
    {
      traceId: TRACE_ID,
      spanId: SPAN_ID,
      parentSpanId: PARENT_ID,
      traceState: "vendor=value",
      name: "POST /evaluate",
      kind: 2,
      startTimeUnixNano: START,
      endTimeUnixNano: END,
      attributes: {
        "http.request.method": "POST",
        "http.response.status_code": 200,
        "rule_server.cached": true,
        "rule_server.share": 0.25,
        "rule_server.big": 9_007_199_254_740_993n,
        "rule_server.negative": -5,
        "rule_server.list": ["a", 1],
        "rule_server.map": { inner: "x" },
        "rule_server.bytes": new Uint8Array([1, 2, 255]),
        "rule_server.empty": null,
      },
      status: { code: 0 },
    },
    {
      traceId: TRACE_ID,
      spanId: CHILD_ID,
      parentSpanId: SPAN_ID,
      name: "evaluate",
      kind: 1,
      startTimeUnixNano: START + 1000n,
      endTimeUnixNano: END - 1000n,
      attributes: {},
      status: { code: 2, message: "worker failed" },
    },
  ],
};

function protobufRequest(): Uint8Array<ArrayBuffer> {
  const attributes = concat(
    keyValue(9, "http.request.method", stringField(1, "POST")),
    keyValue(9, "http.response.status_code", varintField(3, 200)),
    keyValue(9, "rule_server.cached", varintField(2, 1)),
    keyValue(9, "rule_server.share", doubleField(4, 0.25)),
    keyValue(9, "rule_server.big", varintField(3, 9_007_199_254_740_993n)),
    keyValue(9, "rule_server.negative", varintField(3, -5n)),
    keyValue(
      9,
      "rule_server.list",
      lengthField(5, concat(lengthField(1, stringField(1, "a")), lengthField(1, varintField(3, 1)))),
    ),
    keyValue(9, "rule_server.map", lengthField(6, keyValue(1, "inner", stringField(1, "x")))),
    keyValue(9, "rule_server.bytes", lengthField(7, new Uint8Array([1, 2, 255]))),
    keyValue(9, "rule_server.empty", new Uint8Array(0)),
  );
  const serverSpan = concat(
    hexField(1, TRACE_ID),
    hexField(2, SPAN_ID),
    stringField(3, "vendor=value"),
    hexField(4, PARENT_ID),
    stringField(5, "POST /evaluate"),
    varintField(6, 2),
    fixed64Field(7, START),
    fixed64Field(8, END),
    attributes,
    varintField(10, 0),
    lengthField(15, new Uint8Array(0)),
  );
  const childSpan = concat(
    hexField(1, TRACE_ID),
    hexField(2, CHILD_ID),
    hexField(4, SPAN_ID),
    stringField(5, "evaluate"),
    varintField(6, 1),
    fixed64Field(7, START + 1000n),
    fixed64Field(8, END - 1000n),
    lengthField(15, concat(stringField(2, "worker failed"), varintField(3, 2))),
  );
  const scope = concat(stringField(1, "rule-server"), stringField(2, "1.0.0"));
  const scopeSpans = concat(lengthField(1, scope), lengthField(2, serverSpan), lengthField(2, childSpan));
  const resource = concat(
    keyValue(1, "service.name", stringField(1, "rule-server")),
    keyValue(1, "process.pid", varintField(3, 4242)),
  );
  // An unknown field in a ResourceSpans (99) is skipped, as protobuf readers do.
  const resourceSpans = concat(lengthField(1, resource), lengthField(2, scopeSpans), stringField(99, "future"));
  return lengthField(1, resourceSpans);
}

function jsonRequest(): string {
  return JSON.stringify({
    resourceSpans: [
      {
        resource: {
          attributes: [
            { key: "service.name", value: { stringValue: "rule-server" } },
            { key: "process.pid", value: { intValue: 4242 } },
          ],
        },
        scopeSpans: [
          {
            scope: { name: "rule-server", version: "1.0.0" },
            spans: [
              {
                traceId: TRACE_ID.toUpperCase(),
                spanId: SPAN_ID,
                parentSpanId: PARENT_ID,
                traceState: "vendor=value",
                name: "POST /evaluate",
                kind: 2,
                startTimeUnixNano: START.toString(),
                endTimeUnixNano: END.toString(),
                attributes: [
                  { key: "http.request.method", value: { stringValue: "POST" } },
                  { key: "http.response.status_code", value: { intValue: "200" } },
                  { key: "rule_server.cached", value: { boolValue: true } },
                  { key: "rule_server.share", value: { doubleValue: 0.25 } },
                  { key: "rule_server.big", value: { intValue: "9007199254740993" } },
                  { key: "rule_server.negative", value: { intValue: "-5" } },
                  {
                    key: "rule_server.list",
                    value: { arrayValue: { values: [{ stringValue: "a" }, { intValue: "1" }] } },
                  },
                  {
                    key: "rule_server.map",
                    value: { kvlistValue: { values: [{ key: "inner", value: { stringValue: "x" } }] } },
                  },
                  { key: "rule_server.bytes", value: { bytesValue: Buffer.from([1, 2, 255]).toString("base64") } },
                  { key: "rule_server.empty", value: {} },
                ],
                droppedAttributesCount: 0,
                status: {},
              },
              {
                traceId: TRACE_ID,
                spanId: CHILD_ID,
                parentSpanId: SPAN_ID,
                name: "evaluate",
                kind: 1,
                startTimeUnixNano: (START + 1000n).toString(),
                endTimeUnixNano: (END - 1000n).toString(),
                status: { code: 2, message: "worker failed" },
                aFutureMember: true,
              },
            ],
          },
        ],
      },
    ],
  });
}

let receiver: OtlpReceiver | undefined;
afterEach(async () => {
  await receiver?.stop();
  receiver = undefined;
});

function start(options?: OtlpReceiverOptions): OtlpReceiver {
  receiver = startOtlpReceiver(options);
  return receiver;
}

function post(
  url: string,
  contentType: string,
  body: Uint8Array<ArrayBuffer> | string,
  headers: Record<string, string> = {},
) {
  return fetch(url, { method: "POST", headers: { "content-type": contentType, ...headers }, body });
}

describe("startOtlpReceiver", () => {
  test("decodes a protobuf export into the plain shape and answers an empty protobuf response", async () => {
    const otlp = start();
    const response = await post(otlp.tracesUrl, "application/x-protobuf", protobufRequest());
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/x-protobuf");
    expect((await response.arrayBuffer()).byteLength).toBe(0);
    expect(otlp.received()).toEqual([EXPECTED]);
  });

  test("decodes the same export in OTLP/JSON, hex ids and all, to the same shape", async () => {
    const otlp = start();
    const response = await post(otlp.tracesUrl, "application/json; charset=utf-8", jsonRequest());
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({});
    expect(otlp.received()).toEqual([EXPECTED]);
  });

  test("takes gzipped bodies in both encodings", async () => {
    const otlp = start();
    const gzip = { "content-encoding": "gzip" };
    expect((await post(otlp.tracesUrl, "application/x-protobuf", Bun.gzipSync(protobufRequest()), gzip)).status).toBe(
      200,
    );
    expect((await post(otlp.tracesUrl, "application/json", Bun.gzipSync(jsonRequest()), gzip)).status).toBe(200);
    expect(otlp.received()).toEqual([EXPECTED, EXPECTED]);
  });

  test("keeps each accepted request's headers beside its export", async () => {
    const otlp = start();
    await post(otlp.tracesUrl, "application/json", jsonRequest(), { "x-api-key": "secret" });
    expect(otlp.headers()).toHaveLength(1);
    expect(otlp.headers()[0]).toMatchObject({ "x-api-key": "secret", "content-type": "application/json" });
  });

  test("waitForSpans resolves once enough spans arrived, and times out when they do not", async () => {
    const otlp = start();
    const waiting = otlp.waitForSpans(4, 2000);
    await post(otlp.tracesUrl, "application/json", jsonRequest());
    await post(otlp.tracesUrl, "application/x-protobuf", protobufRequest());
    expect((await waiting).map((span) => span.spanId)).toEqual([SPAN_ID, CHILD_ID, SPAN_ID, CHILD_ID]);
    await expect(otlp.waitForSpans(5, 50)).rejects.toThrow("got 4 spans in 50 ms, not the 5 awaited");
  });

  test("answers 503 while unavailable, keeping nothing, and accepts again once told", async () => {
    const otlp = start({ answer: "unavailable" });
    expect((await post(otlp.tracesUrl, "application/x-protobuf", protobufRequest())).status).toBe(503);
    expect(otlp.received()).toEqual([]);
    expect(otlp.refused()).toBe(1);
    otlp.answer("ok");
    expect((await post(otlp.tracesUrl, "application/x-protobuf", protobufRequest())).status).toBe(200);
    expect(otlp.received()).toHaveLength(1);
  });

  test("hangs without answering until stopped", async () => {
    const otlp = start();
    otlp.answer("hang");
    const pending = post(otlp.tracesUrl, "application/json", jsonRequest());
    const outcome = await Promise.race([pending.then(() => "answered"), Bun.sleep(300).then(() => "still waiting")]);
    expect(outcome).toBe("still waiting");
    expect(otlp.refused()).toBe(1);
    await otlp.stop();
    receiver = undefined;
    await expect(pending).rejects.toThrow();
  });

  test("refuses JSON ids in base64 with 400, and waitForSpans reports why", async () => {
    const otlp = start();
    const base64Ids = jsonRequest().replace(TRACE_ID.toUpperCase(), Buffer.from(TRACE_ID, "hex").toString("base64"));
    const response = await post(otlp.tracesUrl, "application/json", base64Ids);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("is not hex");
    expect(otlp.received()).toEqual([]);
    await expect(otlp.waitForSpans(1, 1000)).rejects.toThrow("refused a request: application/json: traceId");
  });

  test("refuses protobuf that is cut short, ids of the wrong length, and fields of the wrong wire type", async () => {
    const otlp = start();
    const whole = protobufRequest();
    const cut = await post(otlp.tracesUrl, "application/x-protobuf", whole.subarray(0, whole.length - 3));
    expect(cut.status).toBe(400);
    const shortId = lengthField(1, lengthField(2, lengthField(2, concat(hexField(1, "abcd"), hexField(2, SPAN_ID)))));
    expect((await post(otlp.tracesUrl, "application/x-protobuf", shortId)).status).toBe(400);
    const nameAsVarint = lengthField(1, lengthField(2, lengthField(2, varintField(5, 7))));
    expect((await post(otlp.tracesUrl, "application/x-protobuf", nameAsVarint)).status).toBe(400);
    expect(otlp.problems()).toEqual([
      expect.stringMatching(/^application\/x-protobuf: a field of \d+ bytes runs past the end of its message$/),
      'application/x-protobuf: span "" has a traceId of 2 bytes, not 16',
      "application/x-protobuf: field 5 came as varint, OTLP declares it len",
    ]);
  });

  test("answers 415 to other content types and encodings, 404 and 405 elsewhere", async () => {
    const otlp = start();
    expect((await post(otlp.tracesUrl, "text/plain", "spans")).status).toBe(415);
    expect((await post(otlp.tracesUrl, "application/json", jsonRequest(), { "content-encoding": "br" })).status).toBe(
      415,
    );
    expect((await post(`${otlp.endpoint}/v1/metrics`, "application/json", "{}")).status).toBe(404);
    expect((await fetch(otlp.tracesUrl)).status).toBe(405);
    expect(otlp.problems()).toHaveLength(4);
    expect(otlp.received()).toEqual([]);
  });
});
