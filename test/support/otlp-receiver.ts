import { decodeJsonTraceRequest } from "./otlp-json-request.ts";
import { decodeProtobufTraceRequest } from "./otlp-protobuf-request.ts";
import { checkSpanIds, OtlpDecodeError, type OtlpSpan, type OtlpTraceExport } from "./otlp-trace-export.ts";

/**
 * How the receiver answers exports: "ok" accepts them, "unavailable" answers 503 (which OTLP
 * exporters retry), "hang" reads nothing and never answers until the receiver stops.
 */
export type OtlpReceiverAnswer = "ok" | "unavailable" | "hang";

export interface OtlpReceiverOptions {
  /** How it answers from the start; "ok" unless told. */
  readonly answer?: OtlpReceiverAnswer;
}

/** An OTLP/HTTP trace receiver, a collector's stand-in for tests. */
export interface OtlpReceiver {
  /** Its base URL, for OTEL_EXPORTER_OTLP_ENDPOINT (exporters add `/v1/traces`). */
  readonly endpoint: string;
  /** Its traces URL, for OTEL_EXPORTER_OTLP_TRACES_ENDPOINT. */
  readonly tracesUrl: string;
  /** The exports it accepted, one per request, in the order they came. */
  received(): OtlpTraceExport[];
  /** The spans of every accepted export, in order. */
  spans(): OtlpSpan[];
  /** The headers of each accepted request (names in lower case), in the order of `received()`. */
  headers(): Record<string, string>[];
  /** How many exports it answered 503 or left hanging. */
  refused(): number;
  /** Why the requests it answered 400 (or 404, 405, 415) were refused, one line each. */
  problems(): string[];
  /** Changes how later requests are answered; requests left hanging stay so. */
  answer(mode: OtlpReceiverAnswer): void;
  /** Resolves with every accepted span once there are at least `count`; rejects on a refused request or after `timeoutMs`. */
  waitForSpans(count: number, timeoutMs?: number): Promise<OtlpSpan[]>;
  /** Stops listening and drops its connections, the hanging ones included. */
  stop(): Promise<void>;
}

const TRACES_PATH = "/v1/traces";
const WAIT_POLL_MS = 10;

/** Starts a receiver on 127.0.0.1 at a free port, taking OTLP/HTTP in protobuf and JSON, gzipped or not. */
export function startOtlpReceiver(options: OtlpReceiverOptions = {}): OtlpReceiver {
  let mode: OtlpReceiverAnswer = options.answer ?? "ok";
  const received: OtlpTraceExport[] = [];
  const headers: Record<string, string>[] = [];
  const problems: string[] = [];
  let refused = 0;

  function problem(status: number, why: string): Response {
    problems.push(why);
    return new Response(why, { status });
  }

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    // Bun closes a connection idle for 10 s by default; a hanging collector keeps it open.
    idleTimeout: 0,
    async fetch(request) {
      const path = new URL(request.url).pathname;
      if (path !== TRACES_PATH) return problem(404, `${request.method} ${path}: only ${TRACES_PATH} is served`);
      if (request.method !== "POST") return problem(405, `${request.method} ${TRACES_PATH}: only POST is served`);
      if (mode === "hang") {
        refused++;
        return new Promise<Response>(() => {});
      }
      if (mode === "unavailable") {
        refused++;
        return new Response("unavailable", { status: 503 });
      }
      const mediaType = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
      const encoding = (request.headers.get("content-encoding") ?? "identity").trim().toLowerCase();
      if (mediaType !== "application/x-protobuf" && mediaType !== "application/json") {
        return problem(415, `content type ${JSON.stringify(mediaType)} is neither protobuf nor JSON`);
      }
      if (encoding !== "identity" && encoding !== "gzip") {
        return problem(415, `content encoding ${JSON.stringify(encoding)} is neither gzip nor identity`);
      }
      const raw = new Uint8Array(await request.arrayBuffer());
      let decoded: OtlpTraceExport;
      try {
        const body = encoding === "gzip" ? Bun.gunzipSync(raw) : raw;
        decoded = mediaType === "application/json" ? decodeJsonTraceRequest(body) : decodeProtobufTraceRequest(body);
        checkSpanIds(decoded.spans);
      } catch (error) {
        const why = error instanceof OtlpDecodeError ? error.message : `the body does not unpack: ${error}`;
        return problem(400, `${mediaType}: ${why}`);
      }
      received.push(decoded);
      headers.push(Object.fromEntries(request.headers.entries()));
      // An empty ExportTraceServiceResponse, in the request's own encoding.
      return mediaType === "application/json"
        ? new Response("{}", { headers: { "content-type": "application/json" } })
        : new Response(new Uint8Array(0), { headers: { "content-type": "application/x-protobuf" } });
    },
  });

  const endpoint = `http://127.0.0.1:${server.port}`;
  const spans = () => received.flatMap((entry) => entry.spans);
  return {
    endpoint,
    tracesUrl: `${endpoint}${TRACES_PATH}`,
    received: () => [...received],
    spans,
    headers: () => [...headers],
    refused: () => refused,
    problems: () => [...problems],
    answer(next) {
      mode = next;
    },
    async waitForSpans(count, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        if (problems.length > 0) throw new Error(`the OTLP receiver refused a request: ${problems[0]}`);
        const all = spans();
        if (all.length >= count) return all;
        if (Date.now() > deadline) {
          throw new Error(`the OTLP receiver got ${all.length} spans in ${timeoutMs} ms, not the ${count} awaited`);
        }
        await Bun.sleep(WAIT_POLL_MS);
      }
    },
    stop: () => server.stop(true),
  };
}
