import { afterAll, beforeAll, expect, test } from "bun:test";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CASES_DIR, goldenJsonFiles } from "../support/golden-files.ts";
import { LspClient, PROJECT_ROOT } from "../support/lsp-client.ts";
import { copyRulesWrittenAsTrees } from "../support/rules-written-as-trees.ts";

/**
 * What changes around an open ruleset reaches it: a parent edited in the editor re-checks its
 * child, a schema file saved on disk re-checks the rulesets naming it (on save), a problem inside a
 * schema file points back at the `$ref` that led there, and a workspace holds several rules
 * directories at once (the rules/ example among them, its expressions written as trees).
 */
let client: LspClient;
const work = mkdtempSync(join(tmpdir(), "rule-server-lsp-workspace-"));
const uriOf = (file: string): string => Bun.pathToFileURL(file).href;
const examples = join(work, "examples");
const coverage = join(work, "coverage");

beforeAll(async () => {
  copyRulesWrittenAsTrees(join(PROJECT_ROOT, "rules"), examples);
  cpSync(join(CASES_DIR, "coverage", "rules"), coverage, { recursive: true });
  client = new LspClient();
  await client.initialize(work);
});
afterAll(async () => {
  await client.shutdown();
  rmSync(work, { recursive: true, force: true });
});

test("an edit of the open parent re-checks its open child; undoing it clears the child's problem", async () => {
  const parent = join(coverage, "base.ruleset.yaml");
  const child = join(coverage, "child.ruleset.yaml");
  const parentText = readFileSync(parent, "utf8");
  client.open(uriOf(parent), parentText);
  client.open(uriOf(child), readFileSync(child, "utf8"));
  await client.waitForDiagnostics(uriOf(child), (list) => list.length === 0);
  let before = client.publishedCount(uriOf(child));
  client.notify("textDocument/didChange", {
    textDocument: { uri: uriOf(parent), version: 2 },
    contentChanges: [{ text: parentText.replace("op: lte", "op: lte3") }],
  });
  const broken = await client.waitForDiagnostics(uriOf(child), (list) => list.length > 0, before);
  expect(broken.map((diagnostic) => diagnostic.code)).toEqual(["EXTENDS_INVALID"]);
  // The parent's problem rides along as related information of the child's.
  expect(broken[0]!.relatedInformation?.[0]?.location.uri).toBe(uriOf(parent));
  before = client.publishedCount(uriOf(child));
  client.notify("textDocument/didChange", {
    textDocument: { uri: uriOf(parent), version: 3 },
    contentChanges: [{ text: parentText }],
  });
  expect(await client.waitForDiagnostics(uriOf(child), () => true, before)).toEqual([]);
});

test("a schema file saved on disk is read again when an open ruleset is saved; its problem is placed in it", async () => {
  const ruleset = join(coverage, "base.ruleset.yaml");
  const schema = join(coverage, "shop.schema.json");
  const original = readFileSync(schema, "utf8");
  writeFileSync(schema, original.replace('"Order"', '"Ordr"'));
  const before = client.publishedCount(uriOf(schema));
  client.notify("textDocument/didSave", { textDocument: { uri: uriOf(ruleset) } });
  const diagnostics = await client.waitForDiagnostics(uriOf(schema), (list) => list.length > 0, before);
  expect(diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.data?.didYouMean])).toEqual([
    ["SCHEMA_REF_UNRESOLVED", "Ordr"],
  ]);
  writeFileSync(schema, original);
  const after = client.publishedCount(uriOf(schema));
  client.notify("textDocument/didSave", { textDocument: { uri: uriOf(ruleset) } });
  expect(await client.waitForDiagnostics(uriOf(schema), () => true, after)).toEqual([]);
});

test("a schema file changed on disk reaches the open rulesets as soon as the editor reports it, with no save", async () => {
  const ruleset = join(coverage, "base.ruleset.yaml");
  const schema = join(coverage, "shop.schema.json");
  // Opened again: the check that follows is done before the schema changes.
  const opened = client.publishedCount(uriOf(ruleset));
  client.open(uriOf(ruleset), readFileSync(ruleset, "utf8"));
  await client.waitForDiagnostics(uriOf(ruleset), () => true, opened);
  const original = readFileSync(schema, "utf8");
  writeFileSync(schema, original.replace('"Order"', '"Ordr"'));
  const before = client.publishedCount(uriOf(schema));
  client.notify("workspace/didChangeWatchedFiles", { changes: [{ uri: uriOf(schema), type: 2 }] });
  const diagnostics = await client.waitForDiagnostics(uriOf(schema), (list) => list.length > 0, before);
  expect(diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["SCHEMA_REF_UNRESOLVED"]);
  writeFileSync(schema, original);
  const after = client.publishedCount(uriOf(schema));
  client.notify("workspace/didChangeWatchedFiles", { changes: [{ uri: uriOf(schema), type: 2 }] });
  expect(await client.waitForDiagnostics(uriOf(schema), () => true, after)).toEqual([]);
});

test("an unsaved ruleset in a directory not on disk yet is checked like any other", async () => {
  const file = join(work, "not-yet", "new.ruleset.yaml");
  client.open(uriOf(file), "ruleCascade: '1.0.0'\nkind: RuleSet\n");
  const diagnostics = await client.waitForDiagnostics(uriOf(file), (list) => list.length > 0);
  expect(diagnostics.every((diagnostic) => typeof diagnostic.code === "string")).toBe(true);
  expect(diagnostics.length).toBeGreaterThan(0);
});

test("while a child does not resolve, its parent's custom operators and entities still complete", async () => {
  const directory = join(work, "unresolved-child");
  mkdirSync(directory);
  const header = (id: string) =>
    `ruleCascade: "1.0.0"\nkind: RuleSet\nmetadata:\n  id: ${id}\n  version: 1.0.0\n  title: ${id}\nscope:\n  - level: organization\n    id: acme\n`;
  writeFileSync(
    join(directory, "parent.ruleset.yaml"),
    `${header("t.parent")}entities:\n  Order:\n    description: An order\noperators:\n  x-near:\n    description: Near\n    args: 2\nrules: []\n`,
  );
  // The parent's version is not the one asked for: the child does not resolve as it is being written.
  const child = `${header("t.child")}extends:\n  - ruleset: t.parent\n    version: "^9.0.0"\nrules:\n  - id: r\n    kind: validation\n    target: { entity: O }\n    operations: [create]\n    assert: { op: x, args: [] }\n    severity: error\n    finding: { code: R, message: m }\n`;
  const file = join(directory, "child.ruleset.yaml");
  writeFileSync(file, child);
  client.open(uriOf(file), child);
  const complete = async (needle: string): Promise<string[]> => {
    const offset = child.indexOf(needle) + needle.length;
    const before = child.slice(0, offset);
    const position = { line: before.split("\n").length - 1, character: offset - before.lastIndexOf("\n") - 1 };
    return (
      await client.request<{ label: string }[]>("textDocument/completion", {
        textDocument: { uri: uriOf(file) },
        position,
      })
    ).map((item) => item.label);
  };
  expect(await complete("op: x")).toContain("x-near");
  expect(await complete("entity: O")).toContain("Order");
});

test("a problem inside a schema file points back at the $ref that led there", async () => {
  const found = goldenJsonFiles("located-problems")
    .flatMap((file) => (file.content as { cases: { name: string; files: Record<string, string> }[] }).cases)
    .find((entry) => entry.name === "YAML schema: the fragment names a schema the file lacks")!;
  const directory = join(work, "schema-case");
  mkdirSync(directory);
  for (const [name, text] of Object.entries(found.files)) writeFileSync(join(directory, name), text);
  client.open(uriOf(join(directory, "loans.ruleset.yaml")), found.files["loans.ruleset.yaml"]!);
  const inSchema = await client.waitForDiagnostics(
    uriOf(join(directory, "loan.openapi.yaml")),
    (list) => list.length > 0,
  );
  expect(inSchema[0]!.relatedInformation).toEqual([
    expect.objectContaining({
      location: {
        uri: uriOf(join(directory, "loans.ruleset.yaml")),
        range: expect.objectContaining({ start: { line: 12, character: 12 } }),
      },
    }),
  ]);
});

test("a rule id defined twice points at its first definition, in the parent's file", async () => {
  const found = goldenJsonFiles("located-problems")
    .flatMap((file) => (file.content as { cases: { name: string; files: Record<string, string> }[] }).cases)
    .find((entry) => entry.name.startsWith("a child reuses the id of an inherited rule"))!;
  const directory = join(work, "duplicate-case");
  mkdirSync(directory);
  for (const [name, text] of Object.entries(found.files)) writeFileSync(join(directory, name), text);
  client.open(uriOf(join(directory, "loans.ruleset.yaml")), found.files["loans.ruleset.yaml"]!);
  const duplicate = await client.waitForDiagnostics(
    uriOf(join(directory, "loans.ruleset.yaml")),
    (list) => list.length > 0,
  );
  expect(duplicate.map((diagnostic) => diagnostic.code)).toEqual(["RULE_DUPLICATE"]);
  expect(duplicate[0]!.relatedInformation).toEqual([
    expect.objectContaining({
      location: {
        uri: uriOf(join(directory, "base.ruleset.yaml")),
        range: expect.objectContaining({ start: { line: 11, character: 8 } }),
      },
      message: "the first definition",
    }),
  ]);
});

test("several rules directories: the workspace symbols of each; operations and function hovers answered in each", async () => {
  client.open(
    uriOf(join(examples, "acme-payments-transfers.ruleset.yaml")),
    readFileSync(join(examples, "acme-payments-transfers.ruleset.yaml"), "utf8"),
  );
  const symbols = await client.request<{ name: string; location: { uri: string } }[]>("workspace/symbol", {
    query: "",
  });
  expect(symbols.some((symbol) => symbol.location.uri.startsWith(uriOf(examples)))).toBe(true);
  expect(symbols.some((symbol) => symbol.location.uri.startsWith(uriOf(coverage)))).toBe(true);
  const child = join(examples, "acme-payments-transfers.ruleset.yaml");
  const text = readFileSync(child, "utf8");
  const line = text.split("\n").findIndex((entry) => entry.includes("fn: transferFee"));
  const hover = await client.request<{ contents: { value: string } }>("textDocument/hover", {
    textDocument: { uri: uriOf(child) },
    position: { line, character: text.split("\n")[line]!.indexOf("transferFee") + 2 },
  });
  expect(hover.contents.value).toContain("function **transferFee**(amount, urgent, crossBorder)");
  const typed = text.replace("operations: [create, update]", "operations: [create, up]");
  client.notify("textDocument/didChange", {
    textDocument: { uri: uriOf(child), version: 2 },
    contentChanges: [{ text: typed }],
  });
  const at = typed.split("\n").findIndex((entry) => entry.includes("operations: [create, up]"));
  const items = await client.request<{ label: string }[]>("textDocument/completion", {
    textDocument: { uri: uriOf(child) },
    position: { line: at, character: typed.split("\n")[at]!.indexOf("up]") + 2 },
  });
  expect(items.map((item) => item.label)).toEqual(expect.arrayContaining(["approve", "create", "update"]));
});
