import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LspClient, PROJECT_ROOT } from "../support/lsp-client.ts";
import { copyRulesWrittenAsTrees } from "../support/rules-written-as-trees.ts";

/**
 * After an edit the language server checks again only what the edit can change (directory-checks.ts),
 * and sends a file its diagnostics when they changed: what an edit does to the files it does not
 * touch still reaches them, and what it cannot change stays as it was. A real `rule-server lsp` on a
 * copy of the rules/ example, its expressions written as trees, with an unrelated ruleset added that
 * has a problem of its own.
 */
let client: LspClient;
const rules = mkdtempSync(join(tmpdir(), "rule-server-lsp-edits-"));
const PARENT = join(rules, "acme-payments.ruleset.yaml");
const CHILD = join(rules, "acme-payments-transfers.ruleset.yaml");
const UNRELATED = join(rules, "acme-loans.ruleset.yaml");
const uriOf = (file: string): string => Bun.pathToFileURL(file).href;
let version = 1;
const type = (file: string, text: string): void =>
  client.notify("textDocument/didChange", {
    textDocument: { uri: uriOf(file), version: ++version },
    contentChanges: [{ text }],
  });
const codes = (file: string): string[] =>
  (client.latestDiagnostics(uriOf(file)) ?? []).map((diagnostic) => String(diagnostic.code));

const unrelatedText = `ruleCascade: "1.0.0"
kind: RuleSet
metadata:
  id: acme.loans
  version: 1.0.0
  title: Loans
scope:
  - level: enterprise
    id: acme
rules:
  - id: loan.amount.positive
    kind: validation
    target: { entity: Loan, field: /amount }
    operations: [create]
    assert: { op: greater, args: [{ var: data.amount }, 0] }
    severity: error
    finding: { code: LOAN-001, message: notPositive }
messages:
  en:
    notPositive: "The amount must be positive."
`;

beforeAll(async () => {
  copyRulesWrittenAsTrees(join(PROJECT_ROOT, "rules"), rules);
  writeFileSync(UNRELATED, unrelatedText);
  client = new LspClient();
  await client.initialize(rules);
  client.open(uriOf(PARENT), readFileSync(PARENT, "utf8"));
  client.open(uriOf(CHILD), readFileSync(CHILD, "utf8"));
  // The first check is of every file, the ones not open included.
  await client.waitForDiagnostics(uriOf(UNRELATED), (list) => list.length > 0);
  await client.waitForDiagnostics(uriOf(CHILD), (list) => list.length === 0);
});
afterAll(async () => {
  await client.shutdown();
  rmSync(rules, { recursive: true, force: true });
});

test("a child not open gets a diagnostic when an edit to its parent breaks it, and loses it when the parent is put right", async () => {
  client.notify("textDocument/didClose", { textDocument: { uri: uriOf(CHILD) } });
  const parent = readFileSync(PARENT, "utf8");
  let before = client.publishedCount(uriOf(CHILD));
  type(PARENT, parent.replace("op: lte", "op: lte3"));
  const broken = await client.waitForDiagnostics(uriOf(CHILD), (list) => list.length > 0, before);
  expect(broken.map((diagnostic) => diagnostic.code)).toEqual(["EXTENDS_INVALID"]);
  before = client.publishedCount(uriOf(CHILD));
  type(PARENT, parent);
  expect(await client.waitForDiagnostics(uriOf(CHILD), () => true, before)).toEqual([]);
  client.open(uriOf(CHILD), readFileSync(CHILD, "utf8"));
});

test("after an edit to one ruleset, an unrelated ruleset with a problem keeps its diagnostic, not sent again", async () => {
  const kept = client.latestDiagnostics(uriOf(UNRELATED));
  expect(kept?.map((diagnostic) => diagnostic.code).sort()).toEqual(["ENTITY_UNKNOWN", "SCHEMA_INVALID"]);
  const sent = client.publishedCount(uriOf(UNRELATED));
  const child = readFileSync(CHILD, "utf8");
  const before = client.publishedCount(uriOf(CHILD));
  type(CHILD, child.replace("op: gt,", "op: gt3,"));
  await client.waitForDiagnostics(uriOf(CHILD), (list) => list.length > 0, before);
  // Sent in the order checked: what the check had for the unrelated file came before the child's.
  expect(client.publishedCount(uriOf(UNRELATED))).toBe(sent);
  expect(client.latestDiagnostics(uriOf(UNRELATED))).toEqual(kept!);
  const after = client.publishedCount(uriOf(CHILD));
  type(CHILD, child);
  await client.waitForDiagnostics(uriOf(CHILD), (list) => list.length === 0, after);
  expect(client.latestDiagnostics(uriOf(UNRELATED))).toEqual(kept!);
});

test("an id made a duplicate by an edit is reported on both files, and goes away when put right", async () => {
  const child = readFileSync(CHILD, "utf8");
  const parentBefore = client.publishedCount(uriOf(PARENT));
  // The child's file sorts first: it keeps the id, the parent's is the one defined twice, and the child now extends itself.
  type(CHILD, child.replace("  id: acme.payments.transfers\n", "  id: acme.payments\n"));
  await client.waitForDiagnostics(uriOf(PARENT), (list) => list.length > 0, parentBefore);
  expect(codes(PARENT)).toEqual(["RULESET_DUPLICATE"]);
  expect(codes(CHILD)).toEqual(["EXTENDS_CYCLE"]);
  const fixed = client.publishedCount(uriOf(PARENT));
  type(CHILD, child);
  await client.waitForDiagnostics(uriOf(PARENT), (list) => list.length === 0, fixed);
  expect(codes(CHILD)).toEqual([]);
});
