import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { createClient, RuleServerError, type FetchFunction } from "../../src/client/index.ts";
import { PROJECT_ROOT } from "../support/run-cli.ts";
import { serverEnvironment, startServer, TOKEN, type ServerProcess } from "../support/server-process.ts";
import { TRANSFER_REQUESTS, TRANSFERS_RULESET } from "../support/transfer-requests.ts";

/**
 * The client against a real server serving the shipped rules/: each method answers what the raw
 * HTTP call answers, sends the token only where it is needed, and fails with a RuleServerError
 * that carries the problem document.
 */
let server: ServerProcess;

beforeAll(async () => {
  server = await startServer(serverEnvironment(join(PROJECT_ROOT, "rules")));
});
afterAll(async () => {
  await server?.kill();
});

const raw = async (path: string, init: RequestInit = {}): Promise<unknown> =>
  (
    await fetch(`${server.url}${path}`, { ...init, headers: { Authorization: `Bearer ${TOKEN}`, ...init.headers } })
  ).json();
const post = (path: string, body: unknown): Promise<unknown> =>
  raw(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
const request = (index: number) =>
  ({ ...structuredClone(TRANSFER_REQUESTS[index]!), ruleset: TRANSFERS_RULESET }) as Parameters<
    ReturnType<typeof createClient>["evaluate"]
  >[0];

/** A fetch that records what was asked, and what came back, before answering as the platform's does. */
function recordingFetch(): {
  fetch: FetchFunction;
  calls: { url: string; method: string; authorization: string | null; ifNoneMatch: string | null; status: number }[];
} {
  const calls: {
    url: string;
    method: string;
    authorization: string | null;
    ifNoneMatch: string | null;
    status: number;
  }[] = [];
  return {
    calls,
    fetch: async (input, init) => {
      const headers = new Headers(init.headers);
      const response = await fetch(input, init);
      calls.push({
        url: String(input),
        method: init.method ?? "GET",
        authorization: headers.get("Authorization"),
        ifNoneMatch: headers.get("If-None-Match"),
        status: response.status,
      });
      return response;
    },
  };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("the call did not fail");
}

describe("answers what the server answers", () => {
  test("evaluate: the result of POST /evaluations, and with explain its explanation", async () => {
    const client = createClient({ baseUrl: server.url, token: TOKEN });
    for (const index of [0, 1, 2])
      expect(await client.evaluate(request(index))).toEqual((await post("/evaluations", request(index))) as never);
    const explained = await client.evaluate(request(1), { explain: "full" });
    expect(explained.explanation.rules.length).toBeGreaterThan(0);
    expect(explained).toEqual((await post("/evaluations?explain=full", request(1))) as never);
  });

  test("evaluateBatch: items merged over the defaults, answered in order with their ids; a bad item answered alone", async () => {
    const client = createClient({ baseUrl: server.url, token: TOKEN });
    const items = [
      { id: "a", ...TRANSFER_REQUESTS[0] },
      { id: 7, ...TRANSFER_REQUESTS[1] },
      { id: "unknown", ...TRANSFER_REQUESTS[2], ruleset: "no.such.ruleset" },
    ];
    const results = await client.evaluateBatch(structuredClone(items) as never, { ruleset: TRANSFERS_RULESET });
    expect(results.map((result) => [result.id, result.status])).toEqual([
      ["a", 200],
      [7, 200],
      ["unknown", 404],
    ]);
    expect(results[0]).toMatchObject({ result: await client.evaluate(request(0)) });
    expect(results[1]).toMatchObject({ result: await client.evaluate(request(1)) });
    const failed = results[2]!;
    if (!("problem" in failed)) throw new Error("the unknown ruleset's item has no problem");
    expect(failed.problem).toMatchObject({ type: "about:blank", status: 404 });
    const explained = await client.evaluateBatch(
      [{ ...TRANSFER_REQUESTS[0] } as never],
      { ruleset: TRANSFERS_RULESET },
      { explain: "rules" },
    );
    expect("result" in explained[0]! && explained[0].result.explanation !== undefined).toBe(true);
  });

  test("plan: the plan of POST /plans, with its WHERE clause; a plan request with data refused 400", async () => {
    const client = createClient({ baseUrl: server.url, token: TOKEN });
    const request = {
      ruleset: "acme.payments",
      entity: "Transfer",
      operation: "approve",
      actor: { roles: ["teller"] },
      dialect: "sqlite" as const,
    };
    const plan = await client.plan(request);
    expect(plan).toMatchObject({ ruleset: "acme.payments", kind: "conditional", exact: true });
    expect(plan.sql?.where).toContain("json_");
    const direct = await fetch(`${server.url}/plans`, {
      method: "POST",
      headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" },
      body: JSON.stringify(request),
    });
    expect(plan).toEqual((await direct.json()) as never);
    const refused = await client.plan({ ...request, data: {} } as never).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RuleServerError);
    expect((refused as RuleServerError).status).toBe(400);
  });

  test("rulesets: the list of GET /rulesets, also filtered by scope", async () => {
    const client = createClient({ baseUrl: server.url });
    expect(await client.rulesets()).toEqual(((await raw("/rulesets")) as { rulesets: never[] }).rulesets);
    const scoped = await client.rulesets({ scope: "acme/payments" });
    expect(scoped.map((entry) => entry.id)).toEqual(["acme.payments", "acme.payments.transfers"]);
  });

  test("manifest: the client manifest without the token, the server manifest with it", async () => {
    const recorder = recordingFetch();
    const client = createClient({ baseUrl: server.url, token: TOKEN, fetch: recorder.fetch });
    expect(await client.manifest(TRANSFERS_RULESET)).toEqual(
      (await raw(`/rulesets/${TRANSFERS_RULESET}/manifest?channel=client`)) as never,
    );
    const serverManifest = await client.manifest(TRANSFERS_RULESET, "server");
    expect(serverManifest.channel).toBe("server");
    expect(recorder.calls.map((call) => [new URL(call.url).search, call.authorization])).toEqual([
      ["?channel=client", null],
      ["?channel=server", `Bearer ${TOKEN}`],
    ]);
  });

  test("ruleset: the client manifest loaded by the engine, evaluating as the server does, revalidated with a 304", async () => {
    const recorder = recordingFetch();
    const client = createClient({ baseUrl: `${server.url}/`, fetch: recorder.fetch });
    const ruleset = await client.ruleset(TRANSFERS_RULESET);
    expect(ruleset.id).toBe(TRANSFERS_RULESET);
    const withToken = createClient({ baseUrl: server.url, token: TOKEN });
    for (const index of [0, 1, 2])
      expect(ruleset.evaluate(structuredClone(TRANSFER_REQUESTS[index]) as never, "client")).toEqual(
        (await withToken.evaluate({ ...request(index), channel: "client" })) as never,
      );
    expect(await client.ruleset(TRANSFERS_RULESET)).toBe(ruleset);
    expect(recorder.calls.map((call) => [call.status, call.ifNoneMatch !== null, call.authorization])).toEqual([
      [200, false, null],
      [304, true, null],
    ]);
  });
});

describe("sends", () => {
  test("every call under the base URL's own path, and asks a token function before each call that needs it", async () => {
    const asked: string[] = [];
    let tokens = 0;
    const client = createClient({
      baseUrl: "https://rules.example/base",
      token: async () => `t${++tokens}`,
      fetch: async (input, init) => {
        asked.push(`${init.method} ${input.pathname}${input.search} ${new Headers(init.headers).get("Authorization")}`);
        return Response.json(
          input.pathname.endsWith("/batch")
            ? { results: [] }
            : input.pathname.endsWith("/rulesets")
              ? { rulesets: [] }
              : {},
        );
      },
    });
    expect(client.baseUrl).toBe("https://rules.example/base/");
    await client.evaluate(request(0), { explain: "rules" });
    await client.evaluateBatch([]);
    await client.rulesets({ scope: "acme/pay ments" });
    await client.manifest("a b", "server");
    expect(asked).toEqual([
      "POST /base/evaluations?explain=rules Bearer t1",
      "POST /base/evaluations/batch Bearer t2",
      "GET /base/rulesets?scope=acme%2Fpay%20ments null",
      "GET /base/rulesets/a%20b/manifest?channel=server Bearer t3",
    ]);
  });
});

describe("fails with a RuleServerError", () => {
  test("that carries the problem document and the request id of an error answer", async () => {
    const client = createClient({ baseUrl: server.url, token: TOKEN });
    const error = await rejection(client.evaluate({ ...request(0), ruleset: "no.such.ruleset" }));
    expect(error).toBeInstanceOf(RuleServerError);
    const problem = error as RuleServerError;
    expect(problem.code).toBe("NOT_FOUND");
    expect(problem.status).toBe(404);
    expect(problem.problem).toMatchObject({ type: "about:blank", status: 404 });
    expect(problem.message).toBe(`POST /evaluations answered 404: ${problem.problem!.title}`);
    expect(problem.requestId).toMatch(/\S/);
  });

  test("401 for a wrong token, and for the server manifest without one", async () => {
    const wrong = await rejection(createClient({ baseUrl: server.url, token: "wrong" }).evaluate(request(0)));
    expect(wrong).toMatchObject({ code: "UNAUTHORIZED", status: 401, problem: { status: 401 } });
    const anonymous = await rejection(createClient({ baseUrl: server.url }).manifest(TRANSFERS_RULESET, "server"));
    expect(anonymous).toMatchObject({ code: "UNAUTHORIZED", status: 401 });
  });

  test("for a ruleset that is not served, with its problem document", async () => {
    const error = await rejection(createClient({ baseUrl: server.url }).ruleset("no.such.ruleset"));
    expect(error).toBeInstanceOf(RuleServerError);
    expect(error).toMatchObject({ code: "NOT_FOUND", status: 404, problem: { type: "about:blank", status: 404 } });
  });

  test("a code for each error status, 400, 401 and 404 told apart, the problem document kept", async () => {
    const malformed = await rejection(
      createClient({ baseUrl: server.url, token: TOKEN }).evaluate({
        ...request(0),
        entity: 5,
      } as unknown as Parameters<ReturnType<typeof createClient>["evaluate"]>[0]),
    );
    expect(malformed).toMatchObject({
      code: "BAD_REQUEST",
      status: 400,
      problem: { type: "about:blank", status: 400, title: "'entity' must be a string" },
    });
    const unauthorized = await rejection(createClient({ baseUrl: server.url }).evaluate(request(0)));
    expect(unauthorized).toMatchObject({ code: "UNAUTHORIZED", status: 401 });
    const unknown = await rejection(
      createClient({ baseUrl: server.url, token: TOKEN }).evaluate({ ...request(0), ruleset: "no.such.ruleset" }),
    );
    expect(unknown).toMatchObject({ code: "NOT_FOUND", status: 404 });
    // Statuses a gateway in front of the server may answer too.
    const codes: Record<number, string> = {
      403: "FORBIDDEN",
      409: "CONFLICT",
      413: "PAYLOAD_TOO_LARGE",
      415: "UNSUPPORTED_MEDIA_TYPE",
      422: "UNPROCESSABLE",
      429: "TOO_MANY_REQUESTS",
      500: "SERVER_ERROR",
      502: "UNAVAILABLE",
      503: "UNAVAILABLE",
      504: "UNAVAILABLE",
      418: "SERVER_PROBLEM",
      405: "SERVER_PROBLEM",
    };
    for (const [status, code] of Object.entries(codes)) {
      const problem = { type: "about:blank", title: `status ${status}`, status: Number(status) };
      const client = createClient({
        baseUrl: "https://rules.example",
        fetch: async () => Response.json(problem, { status: Number(status) }),
      });
      expect(await rejection(client.rulesets())).toMatchObject({ code, status: Number(status), problem });
      expect(await rejection(client.ruleset("a"))).toMatchObject({ code, status: Number(status) });
    }
  });

  test("a 422's warnings in its problem document", async () => {
    const problem = {
      type: "about:blank",
      title: "the request does not fit the ruleset",
      status: 422,
      warnings: [{ code: "ENTITY_UNKNOWN", pointer: "/entity", message: "no such entity", didYouMean: "Transfer" }],
    };
    const client = createClient({
      baseUrl: "https://rules.example",
      fetch: async () => Response.json(problem, { status: 422 }),
    });
    const error = (await rejection(client.evaluate(request(0)))) as RuleServerError;
    expect(error.problem?.warnings?.[0]?.didYouMean).toBe("Transfer");
  });

  test("SERVER_UNREACHABLE with status 0 when nothing answers", async () => {
    const closed = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
    const port = closed.port;
    closed.stop(true);
    for (const call of [
      (client: ReturnType<typeof createClient>) => client.rulesets(),
      (client: ReturnType<typeof createClient>) => client.ruleset(TRANSFERS_RULESET),
    ]) {
      const error = await rejection(call(createClient({ baseUrl: `http://127.0.0.1:${port}` })));
      expect(error).toBeInstanceOf(RuleServerError);
      expect(error).toMatchObject({ code: "SERVER_UNREACHABLE", status: 0 });
    }
  });

  test("ANSWER_UNREADABLE for a success that is not JSON, BASE_URL_INVALID for a base that is not a URL", async () => {
    const client = createClient({
      baseUrl: "https://rules.example",
      fetch: async () => new Response("<html>", { status: 200 }),
    });
    expect(await rejection(client.rulesets())).toMatchObject({ code: "ANSWER_UNREADABLE", status: 200 });
    expect(() => createClient({ baseUrl: "/rule-server" })).toThrow(
      expect.objectContaining({ code: "BASE_URL_INVALID" }),
    );
  });

  test("but an aborted call keeps the platform's AbortError", async () => {
    const controller = new AbortController();
    controller.abort();
    const client = createClient({ baseUrl: server.url, token: TOKEN });
    const error = await rejection(client.evaluate(request(0), { signal: controller.signal }));
    expect(error).not.toBeInstanceOf(RuleServerError);
    expect((error as Error).name).toBe("AbortError");
  });
});
