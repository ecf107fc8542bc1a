import { afterAll, beforeAll, expect, test } from "bun:test";
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LspClient, PROJECT_ROOT } from "../support/lsp-client.ts";

/**
 * Go to definition on an entity's name: a rule's target entity, a golden test's entity and a
 * child's declaration of an inherited entity go to the entity's declarations in the ruleset and
 * its parents, nearest first, then to the schema object its `$ref` names; the `entities:` key and
 * a `$ref` go to the schema. A real `rule-server lsp` on a copy of the rules/ example.
 */
let client: LspClient;
const rules = mkdtempSync(join(tmpdir(), "rule-server-lsp-definition-"));
cpSync(join(PROJECT_ROOT, "rules"), rules, { recursive: true });
const PARENT = join(rules, "acme-payments.ruleset.yaml");
const CHILD = join(rules, "acme-payments-transfers.ruleset.yaml");
const SCHEMA = join(rules, "payments.openapi.yaml");
const ONBOARDING = join(rules, "customer-onboarding.ruleset.json");
const CUSTOMER_SCHEMA = join(rules, "customer.schema.json");
const uriOf = (file: string): string => Bun.pathToFileURL(file).href;
const textOf = (file: string): string => readFileSync(file, "utf8");

/** The position `delta` characters into the first occurrence of `needle` (after `after`, when given). */
function at(text: string, needle: string, delta: number, after = ""): { line: number; character: number } {
  const offset = text.indexOf(needle, after === "" ? 0 : text.indexOf(after)) + delta;
  if (offset < delta) throw new Error(`${needle} is not in the text`);
  const before = text.slice(0, offset);
  return { line: before.split("\n").length - 1, character: offset - before.lastIndexOf("\n") - 1 };
}
const definition = async (
  file: string,
  needle: string,
  delta: number,
  after = "",
): Promise<{ uri: string; line: number }[]> =>
  (
    await client.request<{ uri: string; range: { start: { line: number } } }[]>("textDocument/definition", {
      textDocument: { uri: uriOf(file) },
      position: at(textOf(file), needle, delta, after),
    })
  ).map((location) => ({ uri: location.uri, line: location.range.start.line + 1 }));
/** Where `needle` is in a file (a leading newline only says it starts a line), as a location's file and line. */
const place = (file: string, needle: string): { uri: string; line: number } => {
  const text = textOf(file);
  if (!text.includes(needle)) throw new Error(`${needle} is not in ${file}`);
  const offset = text.indexOf(needle) + (needle.startsWith("\n") ? 1 : 0);
  return { uri: uriOf(file), line: text.slice(0, offset).split("\n").length };
};

const transferInParent = place(PARENT, "\n  Transfer:\n");
const transferInChild = place(CHILD, "\n  Transfer:\n");
const transferSchema = place(SCHEMA, "\n    Transfer:\n");

beforeAll(async () => {
  client = new LspClient();
  await client.initialize(rules);
  client.open(uriOf(CHILD), textOf(CHILD));
  await client.waitForDiagnostics(uriOf(CHILD));
});
afterAll(async () => {
  await client.shutdown();
  rmSync(rules, { recursive: true, force: true });
});

test("a rule's target entity goes to the entity's declaration, then to its schema", async () => {
  expect(await definition(PARENT, "target: { entity: Transfer", 20)).toEqual([transferInParent, transferSchema]);
  expect(await definition(ONBOARDING, '"entity": "Customer"', 14)).toEqual([
    place(ONBOARDING, '"Customer": {'),
    place(CUSTOMER_SCHEMA, '"CustomerApplication": {'),
  ]);
});

test("in a child, a rule's target entity and a golden test's entity go to the child's declaration, the parent's it is merged over, then the schema", async () => {
  const declarations = [transferInChild, transferInParent, transferSchema];
  expect(await definition(CHILD, "target: { entity: Transfer", 20)).toEqual(declarations);
  expect(await definition(CHILD, "entity: Transfer", 10, "\ntests:")).toEqual(declarations);
});

test("a child's declaration of an inherited entity goes to the parent's declaration and the schema; the entities: key and a $ref go to the schema", async () => {
  expect(await definition(CHILD, "\n  Transfer:", 4, "\nentities:")).toEqual([transferInParent, transferSchema]);
  expect(await definition(PARENT, "\nentities:", 3)).toEqual([transferSchema]);
  expect(await definition(PARENT, "$ref: ", 12, "\nentities:")).toEqual([transferSchema]);
});
