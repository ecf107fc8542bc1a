import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { TextDocument } from "vscode-languageserver-textdocument";
import { RulesWorkspace } from "../../src/lsp/rules-workspace.ts";
import type { FileReport } from "../../src/workspace/file-report.ts";
import { PROJECT_ROOT } from "../support/lsp-client.ts";
import { copyRulesWrittenAsTrees } from "../support/rules-written-as-trees.ts";

/**
 * The language server checks a rules directory whole when it first reads it, and after that checks
 * again only what an edit can change: the edited ruleset and those extending it. Every other file
 * keeps its report (its ruleset is not compiled again, its golden tests are not run again), and the
 * reports are always those a full check of the same texts gives. A change to a file other than a
 * ruleset source (an entity schema) checks every file again. In process, on a copy of the rules/
 * example (its expressions written as trees) with a grandchild of acme.payments and an unrelated
 * ruleset added.
 */
const rules = mkdtempSync(join(tmpdir(), "rule-server-lsp-directory-checks-"));
const PARENT = join(rules, "acme-payments.ruleset.yaml");
const CHILD = join(rules, "acme-payments-transfers.ruleset.yaml");
const GRANDCHILD = join(rules, "acme-payments-transfers-mobile.ruleset.yaml");
const ONBOARDING = join(rules, "customer-onboarding.ruleset.json");
const UNRELATED = join(rules, "acme-loans.ruleset.yaml");
const SCHEMA = join(rules, "payments.openapi.yaml");
/** A schema in a folder below: the folder's stamp does not change when the file is written again. */
const LOAN_SCHEMA = join(rules, "schemas", "loan.schema.json");
const loanSchemaText = JSON.stringify({
  $defs: { Loan: { type: "object", properties: { amount: { type: "number" } } } },
});

const grandchildText = `ruleCascade: "1.0.0"
kind: RuleSet
metadata:
  id: acme.payments.transfers.mobile
  version: 1.0.0
  title: Mobile transfers
scope:
  - level: enterprise
    id: acme
  - level: organization
    id: payments
  - level: application
    id: online-transfers
  - level: channel
    id: mobile
extends:
  - ruleset: acme.payments.transfers
    version: "^1.0.0"
overrides:
  params:
    singleTransferLimit: 5000
rules: []
`;

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
  Loan:
    schema: { $ref: "./schemas/loan.schema.json#/$defs/Loan" }
rules:
  - id: loan.amount.positive
    kind: validation
    target: { entity: Loan, field: /amount }
    operations: [create]
    assert: { op: gt, args: [{ var: data.amount }, 0] }
    severity: error
    finding: { code: LOAN-001, message: notPositive }
messages:
  en:
    notPositive: "The amount must be positive."
tests:
  - name: a loan of nothing is refused
    entity: Loan
    operation: create
    given: { data: { amount: 0 } }
    expect:
      decision: deny
      findings: [{ rule: loan.amount.positive, code: LOAN-001 }]
`;

/** An editor's open documents, as TextDocuments holds them. */
class OpenDocuments {
  private readonly documents = new Map<string, TextDocument>();
  private version = 1;

  get(uri: string): TextDocument | undefined {
    return this.documents.get(uri);
  }

  all(): TextDocument[] {
    return [...this.documents.values()];
  }

  type(file: string, text: string): void {
    const uri = Bun.pathToFileURL(file).href;
    this.documents.set(uri, TextDocument.create(uri, "yaml", ++this.version, text));
  }
}

let editor: OpenDocuments;
let workspace: RulesWorkspace;
const texts = new Map<string, string>();
const textOf = (file: string): string => texts.get(file) ?? readFileSync(file, "utf8");

/** Types `text` into the open `file` and checks the directory. */
function edit(file: string, text: string): FileReport[] {
  editor.type(file, text);
  texts.set(file, text);
  workspace.edited(rules);
  return workspace.check(rules);
}

/** What a language server that never checked the directory before reports for the same texts. */
function fullCheck(): FileReport[] {
  const fresh = new OpenDocuments();
  for (const document of editor.all()) fresh.type(Bun.fileURLToPath(document.uri), document.getText());
  return new RulesWorkspace(fresh).check(rules);
}

const rechecked = (): string[] => [...workspace.checks.recheckedAtLastCheck(rules)].sort();

beforeAll(() => {
  copyRulesWrittenAsTrees(join(PROJECT_ROOT, "rules"), rules);
  writeFileSync(GRANDCHILD, grandchildText);
  writeFileSync(UNRELATED, unrelatedText);
  mkdirSync(dirname(LOAN_SCHEMA));
  writeFileSync(LOAN_SCHEMA, loanSchemaText);
  editor = new OpenDocuments();
  workspace = new RulesWorkspace(editor);
  for (const file of [PARENT, CHILD, UNRELATED]) editor.type(file, textOf(file));
  workspace.check(rules);
});
afterAll(() => rmSync(rules, { recursive: true, force: true }));

test("the first check of a directory checks every file", () => {
  const first = new RulesWorkspace(editor);
  first.check(rules);
  expect(first.checks.recheckedAtLastCheck(rules).length).toBe(5);
});

test("an edit to a ruleset no other extends compiles it alone: the others keep their reports and their golden tests are not run again", () => {
  const before = workspace.check(rules);
  const reports = edit(UNRELATED, textOf(UNRELATED).replace("op: gt", "op: gt3"));
  expect(rechecked()).toEqual([UNRELATED]);
  // The very report objects of the check before: nothing about them was worked out again.
  for (const file of [PARENT, CHILD, GRANDCHILD, ONBOARDING])
    expect(reports.find((report) => report.file === file)).toBe(before.find((report) => report.file === file)!);
  expect(reports.find((report) => report.file === UNRELATED)!.problems.length).toBeGreaterThan(0);
  edit(UNRELATED, unrelatedText);
  expect(rechecked()).toEqual([UNRELATED]);
});

test("an edit to a parent checks it again with its child and grandchild, and no other ruleset", () => {
  edit(PARENT, textOf(PARENT).replace("op: lte", "op: lte3"));
  expect(rechecked()).toEqual([GRANDCHILD, CHILD, PARENT].sort());
  edit(PARENT, readFileSync(PARENT, "utf8"));
  expect(rechecked()).toEqual([GRANDCHILD, CHILD, PARENT].sort());
});

test("a check with no edit since the last checks nothing again", () => {
  workspace.check(rules);
  expect(rechecked()).toEqual([]);
});

test("after each edit the reports are those of a full check of the same texts", () => {
  const parent = readFileSync(PARENT, "utf8");
  const child = readFileSync(CHILD, "utf8");
  const steps: [string, string][] = [
    // The parent broken: its child and grandchild cannot compile.
    [PARENT, parent.replace("op: lte", "op: lte3")],
    [PARENT, parent],
    // The child takes the parent's id: it sorts first, so the parent is the duplicate, and extends goes round.
    [CHILD, child.replace("  id: acme.payments.transfers\n", "  id: acme.payments\n")],
    // The parent's id line moves while it is the duplicate: the problem moves with it.
    [PARENT, `# The company-wide payment policy.\n${parent}`],
    [PARENT, parent],
    [CHILD, child],
    // An unrelated ruleset takes the child's id: the grandchild extends whichever comes first.
    [UNRELATED, unrelatedText.replace("id: acme.loans", "id: acme.payments.transfers")],
    [UNRELATED, unrelatedText],
    // The child does not parse; then a parent version the grandchild does not accept.
    [CHILD, `${child}\n  - [unclosed`],
    [CHILD, child.replace("version: 1.1.0", "version: 2.0.0")],
    [CHILD, child],
    // A golden test of the child fails.
    [CHILD, child.replace("decision: allow", "decision: deny")],
    [CHILD, child],
    // A parent that is not there: its did-you-mean names the ids there are, which an unrelated rename changes.
    [GRANDCHILD, grandchildText.replace("ruleset: acme.payments.transfers", "ruleset: acme.payments.transfer")],
    [UNRELATED, unrelatedText.replace("id: acme.loans", "id: acme.payments.transferz")],
    [UNRELATED, unrelatedText],
    [GRANDCHILD, grandchildText],
  ];
  for (const [file, text] of steps) {
    // Every step edits: a replacement that found nothing would test nothing.
    expect({ file, same: text === textOf(file) }).toEqual({ file, same: false });
    const reports = edit(file, text);
    expect(reports).toEqual(fullCheck());
  }
});

test("a change to an entity schema file on disk checks every file again", () => {
  const original = readFileSync(SCHEMA, "utf8");
  try {
    writeFileSync(SCHEMA, original.replace("Transfer:", "Transfr:"));
    workspace.forget(rules);
    const reports = workspace.check(rules);
    expect(rechecked().length).toBe(5);
    expect(reports).toEqual(fullCheck());
    expect(reports.find((report) => report.file === CHILD)!.problems.map((problem) => problem.code)).toContain(
      "SCHEMA_REF_UNRESOLVED",
    );
  } finally {
    writeFileSync(SCHEMA, original);
  }
  workspace.forget(rules);
  workspace.check(rules);
  expect(rechecked().length).toBe(5);
});

test("a change to an entity schema file in a folder below, which the folder's stamp does not show, checks every file again", () => {
  try {
    writeFileSync(LOAN_SCHEMA, loanSchemaText.replace('"Loan"', '"Loans"'));
    workspace.forget(rules);
    const reports = workspace.check(rules);
    expect(rechecked().length).toBe(5);
    expect(reports.find((report) => report.file === UNRELATED)!.problems.map((problem) => problem.code)).toEqual([
      "SCHEMA_REF_UNRESOLVED",
    ]);
  } finally {
    writeFileSync(LOAN_SCHEMA, loanSchemaText);
  }
  workspace.forget(rules);
  workspace.check(rules);
  expect(rechecked().length).toBe(5);
});

test("an edit to an entity schema open in the editor checks every file again", () => {
  const original = readFileSync(SCHEMA, "utf8");
  edit(SCHEMA, original.replace("Transfer:", "Transfr:"));
  expect(rechecked().length).toBe(5);
  edit(SCHEMA, original);
  expect(rechecked().length).toBe(5);
});

test("a ruleset not open that changes on disk is read and checked again once the directory's disk is looked at again", () => {
  const original = readFileSync(ONBOARDING, "utf8");
  try {
    writeFileSync(ONBOARDING, original.replace('"version": "2.0.0"', '"version": "2.0.1"'));
    workspace.forget(rules);
    const reports = workspace.check(rules);
    expect(rechecked()).toEqual([ONBOARDING]);
    expect(reports).toEqual(fullCheck());
  } finally {
    writeFileSync(ONBOARDING, original);
  }
  workspace.forget(rules);
  workspace.check(rules);
  expect(rechecked()).toEqual([ONBOARDING]);
});

test("an edit reads no file from disk again; a change on disk nothing reported is seen once the last look is DIRECTORY_REUSE_MS old", async () => {
  const original = readFileSync(ONBOARDING, "utf8");
  // Written long enough ago for its stamp to be trusted, then written again, as long ago.
  const ago = (seconds: number): Date => new Date(Date.now() - seconds * 1000);
  utimesSync(ONBOARDING, ago(60), ago(60));
  try {
    workspace.forget(rules);
    workspace.check(rules);
    writeFileSync(ONBOARDING, original.replace('"version": "2.0.0"', '"version": "2.0.1"'));
    utimesSync(ONBOARDING, ago(30), ago(30));
    edit(UNRELATED, `${unrelatedText}# edited\n`);
    expect(rechecked()).toEqual([UNRELATED]);
    await Bun.sleep(2100);
    edit(UNRELATED, unrelatedText);
    expect(rechecked()).toEqual([UNRELATED, ONBOARDING].sort());
  } finally {
    writeFileSync(ONBOARDING, original);
  }
});

test("a ruleset written again within a tick of the clock, its size and time kept, is still read again: a recent stamp is not trusted", () => {
  const original = readFileSync(ONBOARDING, "utf8");
  const recently = new Date(Date.now() - 500);
  try {
    writeFileSync(ONBOARDING, original.replace('"version": "2.0.0"', '"version": "2.0.1"'));
    utimesSync(ONBOARDING, recently, recently);
    workspace.forget(rules);
    workspace.check(rules);
    writeFileSync(ONBOARDING, original.replace('"version": "2.0.0"', '"version": "2.0.2"'));
    utimesSync(ONBOARDING, recently, recently);
    workspace.forget(rules);
    const reports = workspace.check(rules);
    expect(rechecked()).toEqual([ONBOARDING]);
    expect(reports).toEqual(fullCheck());
  } finally {
    writeFileSync(ONBOARDING, original);
  }
});

test("an entity schema written again with its size and time kept is still seen: a small file is stamped by its contents", () => {
  const long = new Date(Date.now() - 60_000);
  try {
    utimesSync(LOAN_SCHEMA, long, long);
    workspace.forget(rules);
    workspace.check(rules);
    writeFileSync(LOAN_SCHEMA, loanSchemaText.replace('"Loan"', '"Loam"'));
    utimesSync(LOAN_SCHEMA, long, long);
    workspace.forget(rules);
    workspace.check(rules);
    expect(rechecked().length).toBe(5);
  } finally {
    writeFileSync(LOAN_SCHEMA, loanSchemaText);
  }
});
