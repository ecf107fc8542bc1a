import { beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { CASES_DIR } from "../support/golden-files.ts";
import { runCli } from "../support/run-cli.ts";

/**
 * The engine protocol of specification section 13, driven through `rule-server engine` as a child
 * process: one response line per request line, in order, with the request's id echoed.
 */
const shopBundle = JSON.parse(readFileSync(join(CASES_DIR, "interop", "shop", "shop-order.bundle.json"), "utf8"));
const clientManifest = shopBundle.manifests.client;
const shopSource = parseYaml(readFileSync(join(CASES_DIR, "interop", "shop", "shop-order.ruleset.yaml"), "utf8"), {
  schema: "core",
});
const orderSchema = JSON.parse(readFileSync(join(CASES_DIR, "interop", "shop", "order.schema.json"), "utf8"));
const goodOrder = {
  entity: "Order",
  operation: "create",
  data: { quantity: 3, unitPrice: 0.1, customer: { email: "a@b.c" } },
};

type Response = {
  id?: unknown;
  ok: boolean;
  result?: any;
  error?: { code: string; message: string; problems?: { code: string }[] };
};

async function engine(lines: readonly string[], args: readonly string[] = []): Promise<Response[]> {
  const run = await runCli(["engine", ...args], `${lines.join("\n")}\n`);
  expect(run.status).toBe(0);
  return run.stdout
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line));
}

const request = (value: unknown): string => JSON.stringify(value);

describe("framing", () => {
  let responses: Response[];
  beforeAll(async () => {
    responses = await engine([
      request({ id: 1, command: "version" }),
      "",
      "   ",
      `${request({ id: "two", command: "expression", expr: 1 })}\r`,
      request({ command: "expression", expr: "no id" }),
      request({ id: null, command: "expression", expr: true }),
    ]);
  });

  test("blank lines get no response; the others answer in order", () => expect(responses.length).toBe(4));
  test("an id is echoed whatever its type", () => {
    expect(responses[0]!.id).toBe(1);
    expect(responses[1]!.id).toBe("two");
    expect(responses[3]!.id).toBeNull();
  });
  test("a carriage return before the line feed is tolerated", () =>
    expect(responses[1]).toEqual({ id: "two", ok: true, result: 1 }));
  test("a request without an id gets a response without one", () =>
    expect(responses[2]).toEqual({ ok: true, result: "no id" }));
});

test("the last line may end without a line feed, and the engine exits when input ends", async () => {
  const run = await runCli(["engine"], request({ id: 9, command: "expression", expr: 2 }));
  expect(run.status).toBe(0);
  expect(JSON.parse(run.stdout)).toEqual({ id: 9, ok: true, result: 2 });
});

test("a carriage return inside a line does not split the request", async () => {
  const [response, ...rest] = await engine([`{"id":1,\r"command":"expression","expr":3}`]);
  expect(rest).toEqual([]);
  expect(response).toEqual({ id: 1, ok: true, result: 3 });
});

test("a line that is not UTF-8 is a bad request", async () => {
  const bytes = new Uint8Array([0x7b, 0xff, 0x7d, 0x0a]);
  const run = await runCli(["engine"], bytes);
  expect(JSON.parse(run.stdout).error.code).toBe("BAD_REQUEST");
});

describe("version", () => {
  test("names the engine, the specification, the bundle format, the levels and the operators", async () => {
    const [plain] = await engine([request({ command: "version" })]);
    expect(plain!.result).toMatchObject({
      engine: "rule-server",
      ruleCascade: "1.0.0",
      bundle: "1.0.0",
      operators: [],
    });
    expect(plain!.result.levels).toEqual(["evaluator", "compiler"]);
    expect(typeof plain!.result.engineVersion).toBe("string");
  });
  test("--conformance-operators registers the three conformance operators", async () => {
    const [response, luhn] = await engine(
      [
        request({ command: "version" }),
        request({ command: "expression", expr: { op: "x-luhn", args: ["79927398713"] } }),
      ],
      ["--conformance-operators"],
    );
    expect(response!.result.operators).toEqual(["x-luhn", "x-test-reverse", "x-test-sum"]);
    expect(luhn!.result).toBe(true);
  });
  test("without the flag a custom operator is not registered and fails", async () => {
    const [response] = await engine([
      request({ command: "expression", expr: { op: "x-luhn", args: ["79927398713"] } }),
    ]);
    expect(response!.error!.code).toBe("EVALUATION_ERROR");
  });
});

describe("BAD_REQUEST", () => {
  const cases: [string, string][] = [
    ["not JSON", "{nope"],
    ["NaN", '{"command":"expression","expr":NaN}'],
    ["Infinity", '{"command":"expression","expr":Infinity}'],
    ["a number too large for a double", '{"command":"expression","expr":1e999}'],
    ["a number too large deep inside", '{"command":"expression","expr":1,"env":{"data":{"a":[1,-1e400]}}}'],
    ["a list", "[1,2]"],
    ["a string", '"version"'],
    ["no command", request({ id: 1 })],
    ["a command that is not a string", request({ command: 5 })],
    ["an unknown command", request({ command: "explode" })],
    ["expression without expr", request({ command: "expression" })],
    ["env that is not an object", request({ command: "expression", expr: 1, env: [] })],
    ["functions that is not an object", request({ command: "expression", expr: 1, functions: "f" })],
    ["a channel other than server or client", request({ command: "manifest", ruleset: "a", channel: "browser" })],
    ["a ruleset that is not a string", request({ command: "manifest", ruleset: 5 })],
    ["a bundle that is not an object", request({ command: "manifest", bundle: [] })],
    ["a manifest that is not an object", request({ command: "evaluate", manifest: "m", request: goodOrder })],
    ["manifest without a source", request({ command: "manifest" })],
    ["load without a bundle or manifest", request({ command: "load" })],
    ["evaluate without a request", request({ command: "evaluate", ruleset: "shop.orders.order" })],
    [
      "a request without the shape of section 8",
      request({ command: "evaluate", ruleset: "never.loaded", request: { entity: 1, operation: "create" } }),
    ],
    ["a document that is not an object", request({ command: "compile", document: "x" })],
    ["a registry that is not an object", request({ command: "compile", document: {}, registry: [] })],
    ["schemaDocuments that is not an object", request({ command: "compile", document: {}, schemaDocuments: 1 })],
  ];
  let responses: Response[];
  beforeAll(async () => {
    responses = await engine(cases.map(([, line]) => line));
  });
  cases.forEach(([name], index) => test(name, () => expect(responses[index]!.error!.code).toBe("BAD_REQUEST")));

  test("members are checked before the ruleset is looked up", () => {
    // "never.loaded" is unknown, but the malformed request is what gets reported.
    expect(responses[20]!.error!.message).toBe("'entity' must be a string");
  });
});

describe("value depth of env roots (4.7)", () => {
  const nest = (depth: number): unknown => (depth === 0 ? 1 : [nest(depth - 1)]);
  test("64 deep is accepted, 65 is a bad request", async () => {
    const [ok, deep] = await engine([
      request({ command: "expression", expr: { op: "len", args: [{ var: "data" }] }, env: { data: nest(64) } }),
      request({ command: "expression", expr: 1, env: { ctx: nest(65) } }),
    ]);
    expect(ok!.result).toBe(1);
    expect(deep!.error!.code).toBe("BAD_REQUEST");
  });
});

describe("rulesets", () => {
  let responses: Response[];
  beforeAll(async () => {
    responses = await engine([
      request({ id: "load", command: "load", bundle: shopBundle }),
      request({ id: "by-id", command: "evaluate", ruleset: "shop.orders.order", request: goodOrder }),
      request({
        id: "client-by-id",
        command: "evaluate",
        ruleset: "shop.orders.order",
        channel: "client",
        request: goodOrder,
      }),
      request({ id: "null-channel", command: "manifest", ruleset: "shop.orders.order", channel: null }),
      request({ id: "unknown", command: "evaluate", ruleset: "nope", request: goodOrder }),
      request({ id: "load-manifest", command: "load", manifest: clientManifest }),
      request({ id: "manifest-default-channel", command: "manifest", ruleset: "shop.orders.order" }),
      request({
        id: "unavailable",
        command: "evaluate",
        ruleset: "shop.orders.order",
        channel: "server",
        request: goodOrder,
      }),
      request({
        id: "bundle-wins",
        command: "manifest",
        bundle: shopBundle,
        manifest: clientManifest,
        ruleset: "nope",
        channel: "server",
      }),
      request({ id: "manifest-wins", command: "manifest", manifest: clientManifest, ruleset: "nope" }),
      request({ id: "bad-bundle", command: "load", bundle: { ruleCascadeBundle: "2.0.0", manifests: {} } }),
      request({
        id: "invalid-bundle",
        command: "evaluate",
        bundle: { ruleCascadeBundle: "1.0.0", manifests: { server: {} } },
        request: goodOrder,
      }),
      request({ id: "invalid-manifest", command: "load", manifest: { id: "x", channel: "browser" } }),
      request({ id: "compile-invalid", command: "compile", document: {} }),
      request({
        id: "compile",
        command: "compile",
        document: shopSource,
        schemaDocuments: { "./order.schema.json": orderSchema },
      }),
      request({ id: "compile-no-schemas", command: "compile", document: shopSource }),
    ]);
  });
  const byId = (id: string): Response => responses.find((response) => response.id === id)!;

  test("load reports the ruleset, its channels and missing operators", () =>
    expect(byId("load").result).toEqual({
      ruleset: "shop.orders.order",
      version: "1.0.0",
      checksum: shopBundle.checksum,
      channels: ["client", "server"],
      missingOperators: [],
    }));
  test("a loaded ruleset is evaluated by id, on the server channel by default", () => {
    expect(byId("by-id").result.decision).toBe("allow");
    expect(byId("by-id").result.commands.length).toBe(1);
  });
  test("the client channel returns no commands", () => expect(byId("client-by-id").result.commands).toEqual([]));
  test("a null channel is the default channel", () => expect(byId("null-channel").result.channel).toBe("server"));
  test("an id that was not loaded is UNKNOWN_RULESET", () =>
    expect(byId("unknown").error!.code).toBe("UNKNOWN_RULESET"));
  test("loading one manifest replaces the ruleset held under its id and has that channel only", () => {
    expect(byId("load-manifest").result.channels).toEqual(["client"]);
    expect(byId("manifest-default-channel").result.channel).toBe("client");
    expect(byId("unavailable").error!.code).toBe("CHANNEL_UNAVAILABLE");
  });
  test("an inline bundle wins over a manifest and a ruleset id", () =>
    expect(byId("bundle-wins").result.channel).toBe("server"));
  test("an inline manifest wins over a ruleset id", () => expect(byId("manifest-wins").result.channel).toBe("client"));
  test("a bundle of another major version is LOAD_FAILED with BUNDLE_UNSUPPORTED", () => {
    expect(byId("bad-bundle").error!.code).toBe("LOAD_FAILED");
    expect(byId("bad-bundle").error!.problems!.map((p) => p.code)).toEqual(["BUNDLE_UNSUPPORTED"]);
  });
  test("a bundle without both manifests is BUNDLE_INVALID", () =>
    expect(byId("invalid-bundle").error!.problems![0]!.code).toBe("BUNDLE_INVALID"));
  test("a manifest without its envelope is MANIFEST_INVALID", () =>
    expect(byId("invalid-manifest").error!.problems![0]!.code).toBe("MANIFEST_INVALID"));
  test("compile refuses an invalid document with LOAD_FAILED and its problems", () => {
    expect(byId("compile-invalid").error!.code).toBe("LOAD_FAILED");
    expect(byId("compile-invalid").error!.problems!.every((problem) => problem.code === "SCHEMA_INVALID")).toBe(true);
  });
  test("compile produces the bundle, with or without schema documents", () => {
    expect(byId("compile").result).toEqual(shopBundle);
    expect(byId("compile-no-schemas").result).toEqual(shopBundle);
  });
});

test("an expression that raises answers EVALUATION_ERROR with a message", async () => {
  const [response] = await engine([request({ id: 1, command: "expression", expr: { op: "div", args: [1, 0] } })]);
  expect(response).toMatchObject({ id: 1, ok: false, error: { code: "EVALUATION_ERROR" } });
  expect(response!.error!.message).toContain("division by zero");
});
