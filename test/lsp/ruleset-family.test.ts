import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LspClient, PROJECT_ROOT } from "../support/lsp-client.ts";
import { copyRulesWrittenAsTrees } from "../support/rules-written-as-trees.ts";

/**
 * A name means what the ruleset declaring it declares, in that ruleset and those extending it,
 * children of children too; a ruleset that `extends` does not relate declares the same name for
 * another thing. Find references stays within that family, and go to definition looks in the
 * ruleset and its parents only, even while the ruleset does not resolve. A real `rule-server lsp`
 * on a copy of the rules/ example (its expressions written as trees), with a grandchild of
 * acme.payments and an unrelated ruleset added (its file sorts first in the directory).
 */
let client: LspClient;
const rules = mkdtempSync(join(tmpdir(), "rule-server-lsp-family-"));
copyRulesWrittenAsTrees(join(PROJECT_ROOT, "rules"), rules);
const PARENT = join(rules, "acme-payments.ruleset.yaml");
const CHILD = join(rules, "acme-payments-transfers.ruleset.yaml");
const GRANDCHILD = join(rules, "acme-payments-transfers-mobile.ruleset.yaml");
const UNRELATED = join(rules, "acme-loans.ruleset.yaml");
const uriOf = (file: string): string => Bun.pathToFileURL(file).href;
const parentText = readFileSync(PARENT, "utf8");
const childText = readFileSync(CHILD, "utf8");

const grandchildText = `ruleCascade: "1.0.0"
kind: RuleSet
metadata:
  id: acme.payments.transfers.mobile
  version: 1.0.0
  title: Mobile transfers
scope:
  - level: enterprise
    id: acme
  - level: application
    id: mobile-transfers
extends:
  - ruleset: acme.payments.transfers
    version: "^1.0.0"
overrides:
  params:
    singleTransferLimit: 5000
  rules:
    - rule: transfer.reference.present
      set: { severity: error }
      reason: The mobile app has no way to confirm a transfer without a reference.
rules:
  - id: transfer.mobile.fee
    kind: validation
    target: { entity: Transfer, field: /fee }
    operations: [create]
    assert: { op: lte, args: [{ fn: transferFee, args: [{ var: data.amount }, false, false] }, { var: params.singleTransferLimit }] }
    severity: warning
    finding: { code: MOB-001, message: feeTooHigh }
messages:
  en:
    feeTooHigh: "The fee is too high."
`;

/** Another ruleset (no extends relation) that declares the same param, rule id and function. */
const unrelatedText = `ruleCascade: "1.0.0"
kind: RuleSet
metadata:
  id: acme.loans
  version: 1.0.0
  title: Loans
scope:
  - level: enterprise
    id: acme
entities:
  Transfer:
    schema:
      $ref: "./payments.openapi.yaml#/components/schemas/Transfer"
params:
  singleTransferLimit:
    type: number
    default: 1000
functions:
  transferFee:
    params: [amount]
    body: { op: mul, args: [{ var: arg.amount }, 0.01] }
rules:
  - id: transfer.reference.present
    kind: validation
    target: { entity: Transfer, field: /amount }
    operations: [create]
    assert: { op: lte, args: [{ fn: transferFee, args: [{ var: data.amount }] }, { var: params.singleTransferLimit }] }
    severity: error
    finding: { code: LOAN-001, message: tooMuch }
messages:
  en:
    tooMuch: "Too much."
tests:
  - name: a small amount passes
    entity: Transfer
    operation: create
    given: { data: { amount: 10 } }
    expect: { decision: allow }
  - name: a large amount is refused
    entity: Transfer
    operation: create
    given: { data: { amount: 10000000 } }
    expect:
      decision: deny
      findings: [{ rule: transfer.reference.present, code: LOAN-001 }]
`;

/** The position `delta` characters into the first occurrence of `needle` (after `after`, when given). */
function at(text: string, needle: string, delta: number, after = ""): { line: number; character: number } {
  const offset = text.indexOf(needle, after === "" ? 0 : text.indexOf(after)) + delta;
  if (offset < delta) throw new Error(`${needle} is not in the text`);
  const before = text.slice(0, offset);
  return { line: before.split("\n").length - 1, character: offset - before.lastIndexOf("\n") - 1 };
}

/** How many references each file holds (files with none left out). */
async function referencesPerFile(
  file: string,
  text: string,
  needle: string,
  delta: number,
  after = "",
): Promise<Record<string, number>> {
  const found = await client.request<{ uri: string }[]>("textDocument/references", {
    textDocument: { uri: uriOf(file) },
    position: at(text, needle, delta, after),
    context: { includeDeclaration: true },
  });
  const counts: Record<string, number> = {};
  for (const location of found) counts[location.uri] = (counts[location.uri] ?? 0) + 1;
  return counts;
}
const count = (text: string, pattern: RegExp): number => (text.match(pattern) ?? []).length;
const definition = async (
  file: string,
  position: { line: number; character: number },
): Promise<{ uri: string; line: number }[]> =>
  (
    await client.request<{ uri: string; range: { start: { line: number } } }[]>("textDocument/definition", {
      textDocument: { uri: uriOf(file) },
      position,
    })
  ).map((location) => ({ uri: location.uri, line: location.range.start.line + 1 }));
const lineOf = (text: string, needle: string): number => text.slice(0, text.indexOf(needle)).split("\n").length;

beforeAll(async () => {
  writeFileSync(GRANDCHILD, grandchildText);
  writeFileSync(UNRELATED, unrelatedText);
  client = new LspClient();
  await client.initialize(rules);
  client.open(uriOf(PARENT), parentText);
  client.open(uriOf(UNRELATED), unrelatedText);
  await client.waitForDiagnostics(uriOf(PARENT));
});
afterAll(async () => {
  await client.shutdown();
  rmSync(rules, { recursive: true, force: true });
});

test("a param's references are its declaration, its reads and the overrides of the rulesets extending it, children of children too, and none of an unrelated ruleset's param of the same name", async () => {
  const family = {
    [uriOf(PARENT)]: count(parentText, /params\.singleTransferLimit/g) + 1,
    [uriOf(CHILD)]: 1,
    [uriOf(GRANDCHILD)]: 2,
  };
  expect(await referencesPerFile(PARENT, parentText, "var: params.singleTransferLimit", 15)).toEqual(family);
  // A child's override is a reference of the parent's param: from it, the same family.
  expect(await referencesPerFile(CHILD, childText, "singleTransferLimit", 3, "overrides:")).toEqual(family);
  // The unrelated ruleset's param is its own: its declaration and its read, nothing of acme.payments.
  expect(await referencesPerFile(UNRELATED, unrelatedText, "var: params.singleTransferLimit", 15)).toEqual({
    [uriOf(UNRELATED)]: 2,
  });
});

test("a rule's references are its declaration and the overrides and tests of its ruleset and those extending it; another ruleset's rule of the same id is another rule", async () => {
  const parentUses = count(parentText, /(id|rule): transfer\.reference\.present\b/g);
  expect(await referencesPerFile(PARENT, parentText, "id: transfer.reference.present", 8)).toEqual({
    [uriOf(PARENT)]: parentUses,
    [uriOf(CHILD)]: count(childText, /rule: transfer\.reference\.present\b/g),
    [uriOf(GRANDCHILD)]: 1,
  });
  expect(await referencesPerFile(UNRELATED, unrelatedText, "id: transfer.reference.present", 8)).toEqual({
    [uriOf(UNRELATED)]: 2,
  });
});

test("a function's references are its declaration and its calls in its ruleset and those extending it", async () => {
  const family = { [uriOf(CHILD)]: count(childText, /fn: transferFee\b/g) + 1, [uriOf(GRANDCHILD)]: 1 };
  expect(await referencesPerFile(CHILD, childText, "fn: transferFee", 6)).toEqual(family);
  expect(await referencesPerFile(CHILD, childText, "transferFee:", 3, "functions:")).toEqual(family);
  expect(await referencesPerFile(UNRELATED, unrelatedText, "fn: transferFee", 6)).toEqual({ [uriOf(UNRELATED)]: 2 });
});

test("a child's override of a param goes to the parent's declaration", async () => {
  expect(await definition(CHILD, at(childText, "singleTransferLimit", 3, "overrides:"))).toEqual([
    { uri: uriOf(PARENT), line: lineOf(parentText, "  singleTransferLimit:") },
  ]);
  expect(await definition(GRANDCHILD, at(grandchildText, "singleTransferLimit", 3, "overrides:"))).toEqual([
    { uri: uriOf(PARENT), line: lineOf(parentText, "  singleTransferLimit:") },
  ]);
});

test("while a child does not resolve, a param it reads still goes to its parent's declaration, not to an unrelated ruleset's", async () => {
  // A parent version the range does not admit: the child does not resolve, its parent is still known by id.
  const unresolved = childText
    .replace('version: "^1.0.0"', 'version: "^9.0.0"')
    .replace("{ var: params.urgentFee }", "{ var: params.singleTransferLimit }");
  client.open(uriOf(CHILD), unresolved);
  try {
    const reading = at(unresolved, "var: params.singleTransferLimit", 15);
    expect(await definition(CHILD, reading)).toEqual([
      { uri: uriOf(PARENT), line: lineOf(parentText, "  singleTransferLimit:") },
    ]);
  } finally {
    client.notify("textDocument/didClose", { textDocument: { uri: uriOf(CHILD) } });
  }
});
