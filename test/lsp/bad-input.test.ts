import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LspClient } from "../support/lsp-client.ts";

/**
 * Bad input never stops `rule-server lsp`: malformed JSON-RPC, an unknown method, a request for a
 * document never opened, a document of several megabytes and a YAML bomb each get the protocol's
 * error or an empty answer, and the next request is answered. Shutdown and exit end it with 0.
 */
let client: LspClient;
const work = mkdtempSync(join(tmpdir(), "rule-server-lsp-bad-"));
const uriOf = (name: string): string => Bun.pathToFileURL(join(work, name)).href;
/** A request every healthy server answers at once. */
const alive = async (): Promise<void> =>
  expect(
    await client.request(
      "textDocument/hover",
      { textDocument: { uri: uriOf("none.ruleset.yaml") }, position: { line: 0, character: 0 } },
      10000,
    ),
  ).toBeNull();

beforeAll(async () => {
  client = new LspClient();
  await client.initialize(work);
});
afterAll(() => {
  client.kill();
  rmSync(work, { recursive: true, force: true });
});

test("a body that is not JSON, then a header that is not one: the next request is answered", async () => {
  client.sendRaw("Content-Length: 12\r\n\r\n{not json!!}");
  await alive();
  client.sendRaw("Content-Length: 2\r\n\r\n[]");
  await alive();
});

test("an unknown method is answered MethodNotFound; an unknown notification is ignored", async () => {
  await expect(client.request("rules/frobnicate", {})).rejects.toMatchObject({ code: -32601 });
  client.notify("rules/somethingElse", { x: 1 });
  await alive();
});

test("requests about a document never opened (and not on disk) get empty answers", async () => {
  const uri = uriOf("never.ruleset.yaml");
  const position = { line: 3, character: 4 };
  expect(await client.request("textDocument/hover", { textDocument: { uri }, position })).toBeNull();
  expect(await client.request("textDocument/completion", { textDocument: { uri }, position })).toEqual([]);
  expect(await client.request("textDocument/definition", { textDocument: { uri }, position })).toEqual([]);
  expect(await client.request("textDocument/documentSymbol", { textDocument: { uri } })).toEqual([]);
  expect(await client.request("textDocument/codeLens", { textDocument: { uri } })).toEqual([]);
  expect(
    await client.request("workspace/executeCommand", { command: "ruleServer.evaluateTest", arguments: [uri, 0] }),
  ).toMatchObject({ error: expect.any(String) });
  expect(
    await client.request("textDocument/hover", { textDocument: { uri: "untitled:Untitled-1" }, position }),
  ).toBeNull();
});

test("a document of several megabytes is said to be too large to check as one types, and the server goes on answering", async () => {
  const rules = Array.from(
    { length: 12000 },
    (_, index) =>
      `  - id: big.rule-${index}\n    kind: validation\n    target: { entity: Order }\n    operations: [create]\n    assert: { op: gt, args: [{ var: data.n }, ${index}] }\n    severity: error\n    finding: { code: BIG-001, message: big }\n`,
  ).join("");
  const text = `ruleCascade: "1.0.0"\nkind: RuleSet\nmetadata: { id: big, version: 1.0.0, title: Big }\nscope: [{ level: organization, id: big }]\nrules:\n${rules}`;
  expect(text.length).toBeGreaterThan(2_000_000);
  const uri = uriOf("big.ruleset.yaml");
  client.open(uri, text);
  const diagnostics = await client.waitForDiagnostics(uri, (list) => list.length > 0);
  expect(diagnostics).toEqual([
    expect.objectContaining({
      code: "FILE_TOO_LARGE",
      message: expect.stringContaining("run rule-server check on it"),
    }),
  ]);
  await alive();
  // Requests about it are answered at once, with nothing: it is not read as one types.
  expect(await client.request("textDocument/documentSymbol", { textDocument: { uri } })).toEqual([]);
  client.notify("textDocument/didClose", { textDocument: { uri } });
});

test("a YAML bomb (aliases of aliases) is a problem, not a hang", async () => {
  const levels = ["a: &a [x, x, x, x, x, x, x, x, x, x]"];
  for (let level = 1; level < 9; level++)
    levels.push(
      `${String.fromCharCode(97 + level)}: &${String.fromCharCode(97 + level)} [${Array(10)
        .fill(`*${String.fromCharCode(96 + level)}`)
        .join(", ")}]`,
    );
  const uri = uriOf("bomb.ruleset.yaml");
  client.open(uri, `${levels.join("\n")}\nruleCascade: "1.0.0"\n`);
  const diagnostics = await client.waitForDiagnostics(uri, (list) => list.length > 0);
  expect(diagnostics[0]!.severity).toBe(1);
  const position = { line: 8, character: 10 };
  expect(await client.request("textDocument/hover", { textDocument: { uri }, position })).toBeNull();
  await client.request("textDocument/completion", { textDocument: { uri }, position });
  await alive();
});

test("shutdown then exit ends the process with status 0", async () => {
  expect(await client.shutdown()).toBe(0);
});
