import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { compileSourceFile } from "../../src/workspace/compile-source-file.ts";
import { LspClient, PROJECT_ROOT } from "../support/lsp-client.ts";

/**
 * "Write as a tree" on an expression written as text and "Write as text" on one written as a tree:
 * each edit replaces exactly the expression, and the source compiles to the same bundle before
 * and after it, in YAML and in JSON. A real `rule-server lsp` on a copy of the rules/ example; the
 * bundles are compiled in another copy.
 */
let client: LspClient;
const rules = mkdtempSync(join(tmpdir(), "rule-server-lsp-expression-forms-"));
const compiled = mkdtempSync(join(tmpdir(), "rule-server-lsp-expression-forms-compiled-"));
cpSync(join(PROJECT_ROOT, "rules"), rules, { recursive: true });
cpSync(join(PROJECT_ROOT, "rules"), compiled, { recursive: true });
const PARENT = join(rules, "acme-payments.ruleset.yaml");
const CHILD = join(rules, "acme-payments-transfers.ruleset.yaml");
const ONBOARDING = join(rules, "customer-onboarding.ruleset.json");
const uriOf = (file: string): string => Bun.pathToFileURL(file).href;
const textOf = (file: string): string => readFileSync(file, "utf8");

interface Position {
  line: number;
  character: number;
}
interface Edit {
  range: { start: Position; end: Position };
  newText: string;
}
interface Action {
  title: string;
  kind: string;
  edit: { changes: Record<string, Edit[]> };
}

function positionOf(text: string, offset: number): Position {
  const before = text.slice(0, offset);
  return { line: before.split("\n").length - 1, character: offset - before.lastIndexOf("\n") - 1 };
}
function offsetOf(text: string, position: Position): number {
  const lines = text.split("\n");
  return lines.slice(0, position.line).reduce((sum, line) => sum + line.length + 1, 0) + position.character;
}
/** The offset `delta` characters into the first occurrence of `needle`, which the text must hold. */
function offsetAt(text: string, needle: string, delta: number): number {
  if (!text.includes(needle)) throw new Error(`${needle} is not in the text`);
  return text.indexOf(needle) + delta;
}

/** The actions offered with the cursor at `needle` + `delta` of the file, its text being `text`. */
async function actionsAt(file: string, text: string, needle: string, delta: number): Promise<Action[]> {
  client.notify("textDocument/didChange", {
    textDocument: { uri: uriOf(file), version: Date.now() },
    contentChanges: [{ text }],
  });
  const position = positionOf(text, offsetAt(text, needle, delta));
  return await client.request<Action[]>("textDocument/codeAction", {
    textDocument: { uri: uriOf(file) },
    range: { start: position, end: position },
    context: { diagnostics: [] },
  });
}

/** The one edit of the action titled `title`, and the text it makes. */
function applied(file: string, text: string, actions: Action[], title: string): { edit: Edit; text: string } {
  const action = actions.find((candidate) => candidate.title === title);
  if (action === undefined) throw new Error(`no ${title} among ${JSON.stringify(actions.map((a) => a.title))}`);
  expect(action.kind).toBe("refactor.rewrite");
  const [edit, ...others] = action.edit.changes[uriOf(file)]!;
  expect(others).toEqual([]);
  const start = offsetOf(text, edit!.range.start);
  return { edit: edit!, text: text.slice(0, start) + edit!.newText + text.slice(offsetOf(text, edit!.range.end)) };
}

/** The checksum of the bundle a ruleset's text compiles to, beside the other files of rules/. */
function checksumOf(file: string, text: string): string {
  const copy = join(compiled, basename(file));
  const original = readFileSync(copy, "utf8");
  writeFileSync(copy, text);
  try {
    const result = compileSourceFile(copy);
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    return String(result.compiled.bundle.checksum);
  } finally {
    writeFileSync(copy, original);
  }
}

beforeAll(async () => {
  client = new LspClient();
  await client.initialize(rules);
  client.open(uriOf(PARENT), textOf(PARENT));
  client.open(uriOf(CHILD), textOf(CHILD));
  client.open(uriOf(ONBOARDING), textOf(ONBOARDING), "json");
  await client.waitForDiagnostics(uriOf(CHILD));
});
afterAll(async () => {
  await client.shutdown();
  rmSync(rules, { recursive: true, force: true });
  rmSync(compiled, { recursive: true, force: true });
});

describe("Write as a tree", () => {
  test("replaces exactly the {expr} with its tree as flow YAML", async () => {
    const text = textOf(PARENT);
    const written = '{ expr: "data.amount <= params.singleTransferLimit" }';
    const actions = await actionsAt(PARENT, text, written, 12);
    const { edit } = applied(PARENT, text, actions, "Write as a tree");
    expect(edit.newText).toBe("{ op: lte, args: [{ var: data.amount }, { var: params.singleTransferLimit }] }");
    expect(edit.range).toEqual({
      start: positionOf(text, text.indexOf(written)),
      end: positionOf(text, text.indexOf(written) + written.length),
    });
  });

  test("every kind of text and place compiles to the same bundle written as a tree, and again written back as text", async () => {
    const cases: [string, string][] = [
      [PARENT, 'body: { expr: "daysBetween(ctx.now, arg.date)" }'],
      [PARENT, "assert: { expr: 'matches(value, \"^[A-Z]{2}\\\\d{2}"],
      [PARENT, 'assert: { expr: "len(data.reference) <= params.referenceMaxLength && matches('],
      [PARENT, 'limit: { expr: "params.singleTransferLimit" }'],
      [PARENT, "assert: { expr: '!empty(trim(coalesce(data.reference, \"\")))' }"],
      [CHILD, '"approval", { expr: "data.id" }'],
      [CHILD, 'when: { expr: \'original.status in ["approved", "executed"]\' }'],
    ];
    for (const [file, needle] of cases) {
      const text = textOf(file);
      const expected = checksumOf(file, text);
      const cursor = needle.indexOf("expr") + 2;
      const tree = applied(file, text, await actionsAt(file, text, needle, cursor), "Write as a tree");
      expect(tree.edit.newText).not.toContain("expr");
      expect(checksumOf(file, tree.text)).toBe(expected);
      const start = offsetOf(tree.text, tree.edit.range.start);
      const back = applied(
        file,
        tree.text,
        await actionsAt(file, tree.text, tree.edit.newText, 3 + start - tree.text.indexOf(tree.edit.newText)),
        "Write as text",
      );
      expect(back.edit.newText).toStartWith("{ expr: ");
      expect(checksumOf(file, back.text)).toBe(expected);
      // rules/ writes its texts as the printer does, quotes and all: the round trip gives the file back.
      expect(back.text).toBe(text);
    }
  });

  test("a text written as a block scalar becomes a tree in its place", async () => {
    const text = textOf(PARENT).replace(
      'assert: { expr: "data.amount <= params.singleTransferLimit" }',
      "assert:\n      expr: |\n        data.amount <=\n          params.singleTransferLimit\n",
    );
    const { edit, text: tree } = applied(PARENT, text, await actionsAt(PARENT, text, "expr: |", 1), "Write as a tree");
    expect(edit.newText).toBe("{ op: lte, args: [{ var: data.amount }, { var: params.singleTransferLimit }] }");
    expect(checksumOf(PARENT, tree)).toBe(checksumOf(PARENT, textOf(PARENT)));
  });

  test("in a JSON file, the tree is JSON", async () => {
    const text = textOf(ONBOARDING);
    const needle = '"body": { "expr": "yearsBetween(arg.dateOfBirth, ctx.now)" }';
    const { edit, text: tree } = applied(
      ONBOARDING,
      text,
      await actionsAt(ONBOARDING, text, needle, 12),
      "Write as a tree",
    );
    expect(edit.newText).toBe('{ "op": "yearsBetween", "args": [{ "var": "arg.dateOfBirth" }, { "var": "ctx.now" }] }');
    expect(JSON.parse(tree)).toBeDefined();
    expect(checksumOf(ONBOARDING, tree)).toBe(checksumOf(ONBOARDING, text));
    const back = applied(ONBOARDING, tree, await actionsAt(ONBOARDING, tree, edit.newText, 3), "Write as text");
    expect(back.edit.newText).toBe('{ "expr": "yearsBetween(arg.dateOfBirth, ctx.now)" }');
  });

  test("an editor asking for quick fixes only is offered no rewrite", async () => {
    const text = textOf(PARENT);
    const position = positionOf(text, offsetAt(text, '{ expr: "data.amount <= params.singleTransferLimit" }', 12));
    // Asked for every kind, with the same text, the rewrite is offered.
    expect(await actionsAt(PARENT, text, '{ expr: "data.amount <= params.singleTransferLimit" }', 12)).toHaveLength(1);
    const actions = await client.request<Action[]>("textDocument/codeAction", {
      textDocument: { uri: uriOf(PARENT) },
      range: { start: position, end: position },
      context: { diagnostics: [], only: ["quickfix"] },
    });
    expect(actions).toEqual([]);
  });

  test("an expr member that is data (a golden test's request) is offered nothing", async () => {
    const text = `${textOf(PARENT)}  - name: data holding expr\n    request: { entity: Transfer, operation: create, data: { expr: "data.amount" } }\n    expect: { decision: allow }\n`;
    expect(await actionsAt(PARENT, text, '{ expr: "data.amount" } }\n    expect', 3)).toEqual([]);
  });
});

describe("Write as text", () => {
  test("on a tree written as block YAML, with the cursor deep inside it, the whole expression becomes one text", async () => {
    const original = textOf(PARENT);
    const text = original.replace(
      'assert: { expr: "!(data.beneficiary.country in params.sanctionedCountries)" }',
      "assert:\n      op: not\n      args:\n        - { op: in, args: [{ var: data.beneficiary.country }, { var: params.sanctionedCountries }] }",
    );
    expect(text).not.toBe(original);
    const { edit, text: written } = applied(
      PARENT,
      text,
      await actionsAt(PARENT, text, "{ op: in,", 3),
      "Write as text",
    );
    expect(edit.newText).toBe('{ expr: "!(data.beneficiary.country in params.sanctionedCountries)" }');
    expect(written).toBe(
      original.replace('assert: { expr: "!(data.beneficiary', 'assert:\n      { expr: "!(data.beneficiary'),
    );
    expect(checksumOf(PARENT, written)).toBe(checksumOf(PARENT, original));
  });

  test("a tree with an argument written as text: the argument can be a tree, the whole can be text", async () => {
    const text = textOf(PARENT).replace(
      'assert: { expr: "data.amount <= params.singleTransferLimit" }',
      'assert: { op: lte, args: [{ expr: "data.amount" }, { var: params.singleTransferLimit }] }',
    );
    const actions = await actionsAt(PARENT, text, '{ expr: "data.amount" }', 3);
    expect(actions.map((action) => action.title).sort()).toEqual(["Write as a tree", "Write as text"]);
    expect(applied(PARENT, text, actions, "Write as text").edit.newText).toBe(
      '{ expr: "data.amount <= params.singleTransferLimit" }',
    );
  });

  test("a tree that text cannot hold is offered nothing", async () => {
    const text = textOf(PARENT).replace(
      'assert: { expr: "data.amount <= params.singleTransferLimit" }',
      "assert: { op: lte, args: [{ var: data.amount }, 1], note: kept }",
    );
    expect(await actionsAt(PARENT, text, "{ op: lte, args: [{ var: data.amount }, 1], note", 3)).toEqual([]);
  });
});
