/**
 * The rules/ example request (README's first evaluation) in process, no network: the engine alone,
 * `answerEvaluation` (body text in, result text out), and the whole `POST /evaluations` handler
 * of the server (token, body, evaluation, request id, metrics, log line) next to a handler that
 * only answers. The two handler rows split an HTTP figure into the server's own path and the
 * rest; the swept row shows what cold caches cost the engine. Target: the request evaluated in
 * under 6 µs. Prints figures; asserts nothing.
 */
import { join } from "node:path";
import { customOperatorsFrom } from "../src/engine/expression/custom-operators.ts";
import { answerEvaluation } from "../src/server/evaluation/evaluation-reply.ts";
import { RuleServer } from "../src/server/rule-server.ts";
import { loadSnapshot } from "../src/server/snapshot/rules-snapshot.ts";
import { EXAMPLE_REQUEST } from "./http/throughput.ts";
import { fromSamples, measure, median, printTable, type Measurement } from "./measure.ts";

const RULES = join(import.meta.dir, "..", "rules");
const TOKEN = "bench-token";
const BODY = JSON.stringify(EXAMPLE_REQUEST);

type Handler = (request: Request) => Response | Promise<Response>;

/** The server's `POST /evaluations` handler, taken from the route table it hands to Bun.serve. */
async function serverHandler(
  schemaEnforcement: "off" | "warn" = "warn",
): Promise<{ handler: Handler; stop: () => Promise<void> }> {
  const serve = Bun.serve;
  let routes: Record<string, Handler> | undefined;
  // The route table is built inside listen(); catching it here keeps the server free of bench hooks.
  Bun.serve = ((options: { routes: Record<string, Handler> }) => {
    routes = options.routes;
    return serve(options as never);
  }) as typeof Bun.serve;
  const server = new RuleServer({ rulesDir: RULES, port: 0, token: TOKEN, log: () => undefined, schemaEnforcement });
  try {
    await server.listen();
  } finally {
    Bun.serve = serve;
  }
  return { handler: routes!["/evaluations"]!, stop: () => server.stop() };
}

const newRequest = (): Request =>
  new Request("http://127.0.0.1/evaluations", {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Authorization: `Bearer ${TOKEN}`,
      "Content-Length": String(BODY.length),
    },
    body: BODY,
  });

/** Like `measure`, for a handler that may answer asynchronously: per-request time over blocks of requests. */
async function measureHandler(name: string, handler: Handler, seconds = 2): Promise<Measurement> {
  const block = 200;
  const run = async (): Promise<number> => {
    const started = performance.now();
    for (let i = 0; i < block; i++) await handler(newRequest());
    return ((performance.now() - started) / block) * 1000;
  };
  for (const warmUntil = performance.now() + 500; performance.now() < warmUntil; ) await run();
  const samples: number[] = [];
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) samples.push(await run());
  return fromSamples(name, samples, block);
}

/**
 * Like `measure`, timing only `run`, with `megabytes` of other memory read and written before
 * each call. Between two requests a server's HTTP and socket work evicts the engine's code and data
 * from the caches; this row shows what that costs without the network, steal or wrk in the way.
 */
function measureWithCachesSwept(name: string, run: () => void, megabytes: number, seconds = 2): Measurement {
  const other = new Int32Array((megabytes * 1024 * 1024) / 4);
  const samples: number[] = [];
  // One write per 64-byte line is enough to take the line from whoever held it.
  const sweep = (): void => {
    for (let i = 0; i < other.length; i += 16) other[i]!++;
  };
  for (let i = 0; i < 200; i++) run();
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    sweep();
    const started = Bun.nanoseconds();
    run();
    samples.push((Bun.nanoseconds() - started) / 1000);
  }
  return fromSamples(name, samples);
}

const RATIO_ROUNDS = 7;

/** The median over alternating rounds of the ratio of `warn`'s time per operation to `off`'s. */
async function medianRatio(off: () => Promise<Measurement>, warn: () => Promise<Measurement>): Promise<number> {
  const ratios: number[] = [];
  for (let round = 0; round < RATIO_ROUNDS; round++) {
    let offRun: Measurement;
    let warnRun: Measurement;
    if (round % 2 === 0) {
      offRun = await off();
      warnRun = await warn();
    } else {
      warnRun = await warn();
      offRun = await off();
    }
    ratios.push(offRun.perSecond / warnRun.perSecond);
  }
  return median(ratios);
}

export async function benchExampleRequest(): Promise<Measurement[]> {
  const snapshot = loadSnapshot(RULES, customOperatorsFrom(undefined), 1);
  const find = (id: string) => snapshot.rulesets.get(id)?.ruleset;
  const ruleset = find(EXAMPLE_REQUEST.ruleset)!;
  const parsed = JSON.parse(BODY);
  const OFF = { schemaEnforcement: "off" } as const;
  const WARN = { schemaEnforcement: "warn" } as const;
  const check = answerEvaluation(BODY, find, WARN);
  if (check.status !== 200) throw new Error(`the example request is answered ${check.status}: ${check.body}`);
  const headers = { "Content-Type": "application/json", "Cache-Control": "no-store" };
  const answerOnly: Handler = async (request) => {
    const reply = answerEvaluation(await request.text(), find, OFF);
    return new Response(reply.body, { status: reply.status, headers });
  };
  const server = await serverHandler();
  const unchecked = await serverHandler("off");
  try {
    const rows = [
      measure("evaluate (request parsed and checked)", () => ruleset.evaluateChecked(parsed, "server")),
      measure("answerEvaluation (text in, text out)", () => answerEvaluation(BODY, find, OFF)),
      measure("answerEvaluation, schema enforcement warn", () => answerEvaluation(BODY, find, WARN)),
      measureWithCachesSwept("answerEvaluation, 2 MB swept before each", () => answerEvaluation(BODY, find, OFF), 2),
      await measureHandler("handler that only answers (per block)", answerOnly),
      await measureHandler("server's POST /evaluations (per block)", server.handler),
      await measureHandler("the same, schema enforcement off", unchecked.handler),
    ];
    printTable("The rules/ example request in process (target: evaluated in under 6 µs)", rows);
    // The rows above are measured one after the other; the ratios come from rounds that alternate, so that drift falls on both alike.
    const serverRatio = await medianRatio(
      () => measureHandler("off", unchecked.handler, 0.5),
      () => measureHandler("warn", server.handler, 0.5),
    );
    const answerRatio = await medianRatio(
      async () => measure("off", () => answerEvaluation(BODY, find, OFF), 0.5),
      async () => measure("warn", () => answerEvaluation(BODY, find, WARN), 0.5),
    );
    console.log(
      `Schema enforcement warn (the default): the server's path takes ${serverRatio.toFixed(2)}x the time it takes with off (target: at most 1.10x); answerEvaluation alone ${answerRatio.toFixed(2)}x (medians over ${RATIO_ROUNDS} alternating rounds)`,
    );
    console.log(
      "Handler rows: Request built, handled and answered in process, timed per block of 200; the difference is the server's own path.",
    );
    console.log(
      "Swept row: the engine's code and data evicted before each request, as a server's HTTP work evicts them (over HTTP it costs more still).",
    );
    return rows;
  } finally {
    await server.stop();
    await unchecked.stop();
  }
}

if (import.meta.main) await benchExampleRequest();
