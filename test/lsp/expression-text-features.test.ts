import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";
import { LspClient, PROJECT_ROOT } from "../support/lsp-client.ts";

/**
 * Inside an expression written as text (`{expr: "..."}`), completion, hover and definition answer
 * for the name at the cursor as they answer for the same name written as a tree; a problem inside
 * a text is shown at its character; hovering a tree shows its text. A real `rule-server lsp` on a
 * copy of the rules/ example, whose expressions are written as text.
 */
let client: LspClient;
const rules = mkdtempSync(join(tmpdir(), "rule-server-lsp-expression-text-"));
cpSync(join(PROJECT_ROOT, "rules"), rules, { recursive: true });
const PARENT = join(rules, "acme-payments.ruleset.yaml");
const CHILD = join(rules, "acme-payments-transfers.ruleset.yaml");
const SCHEMA = join(rules, "payments.openapi.yaml");
const uriOf = (file: string): string => Bun.pathToFileURL(file).href;
const parentText = readFileSync(PARENT, "utf8");
const childText = readFileSync(CHILD, "utf8");
const LIMIT_TEXT = '{ expr: "data.amount <= params.singleTransferLimit" }';

/** The position `delta` characters into the first occurrence of `needle` (after `after`, when given). */
function at(text: string, needle: string, delta = needle.length, after = ""): { line: number; character: number } {
  const offset = text.indexOf(needle, after === "" ? 0 : text.indexOf(after)) + delta;
  if (offset < delta) throw new Error(`${needle} is not in the text`);
  return positionAt(text, offset);
}
function positionAt(text: string, offset: number): { line: number; character: number } {
  const before = text.slice(0, offset);
  return { line: before.split("\n").length - 1, character: offset - before.lastIndexOf("\n") - 1 };
}
/** The 1-based line `needle` is on (a leading newline only says it starts a line). */
const lineOf = (text: string, needle: string): number => {
  if (!text.includes(needle)) throw new Error(`${needle} is not in the text`);
  return text.slice(0, text.indexOf(needle) + (needle.startsWith("\n") ? 1 : 0)).split("\n").length;
};
/** Replaces `needle` where the test needs the text changed, failing when it is not there. */
const replaced = (text: string, needle: string, replacement: string): string => {
  if (!text.includes(needle)) throw new Error(`${needle} is not in the text`);
  return text.replace(needle, replacement);
};

interface Item {
  label: string;
  detail?: string;
  insertText?: string;
  textEdit?: { newText: string };
}
const labels = (items: Item[]): string[] => items.map((item) => item.label).sort();

/** Puts a text in the open document (a full-text change). */
function change(uri: string, text: string): void {
  client.notify("textDocument/didChange", { textDocument: { uri, version: Date.now() }, contentChanges: [{ text }] });
}
async function completeIn(uri: string, text: string, needle: string, delta?: number, after?: string): Promise<Item[]> {
  change(uri, text);
  return await client.request<Item[]>("textDocument/completion", {
    textDocument: { uri },
    position: at(text, needle, delta, after),
  });
}
async function hoverIn(uri: string, text: string, needle: string, delta: number, after?: string): Promise<string> {
  change(uri, text);
  const hover = await client.request<{ contents: { value: string } } | null>("textDocument/hover", {
    textDocument: { uri },
    position: at(text, needle, delta, after),
  });
  return hover?.contents.value ?? "";
}
async function definitionIn(uri: string, text: string, needle: string, delta: number, after?: string) {
  change(uri, text);
  const locations = await client.request<{ uri: string; range: { start: { line: number } } }[]>(
    "textDocument/definition",
    { textDocument: { uri }, position: at(text, needle, delta, after) },
  );
  return locations.map((location) => ({ uri: location.uri, line: location.range.start.line + 1 }));
}

beforeAll(async () => {
  client = new LspClient();
  await client.initialize(rules);
  client.open(uriOf(PARENT), parentText);
  client.open(uriOf(CHILD), childText);
  await client.waitForDiagnostics(uriOf(CHILD));
});
afterAll(async () => {
  await client.shutdown();
  rmSync(rules, { recursive: true, force: true });
});

describe("completion inside a text", () => {
  test("after data. the members of the entity's schema, after data.beneficiary. those of Party, while the text does not read", async () => {
    const schema = parse(readFileSync(SCHEMA, "utf8")) as {
      components: { schemas: Record<string, { properties: Record<string, unknown> }> };
    };
    const typing = (typed: string) =>
      replaced(parentText, LIMIT_TEXT, `{ expr: "${typed} <= params.singleTransferLimit" }`);
    const members = await completeIn(uriOf(PARENT), typing("data."), '{ expr: "data.');
    expect(labels(members)).toEqual(Object.keys(schema.components.schemas.Transfer!.properties).sort());
    // Only the member being typed is replaced.
    expect(members[0]!.textEdit?.newText).toBe(members[0]!.label);
    const deeper = await completeIn(uriOf(PARENT), typing("data.beneficiary.co"), '{ expr: "data.beneficiary.co');
    expect(labels(deeper)).toEqual(Object.keys(schema.components.schemas.Party!.properties).sort());
  });

  test("after params. the params, inherited ones too; after functions. the functions", async () => {
    const typed = replaced(childText, '{ expr: "data.amount + coalesce(data.fee, 0)" }', '{ expr: "params. + 1" }');
    expect(labels(await completeIn(uriOf(CHILD), typed, '{ expr: "params.'))).toEqual(
      expect.arrayContaining(["singleTransferLimit", "urgentFee", "crossBorderFeeRate"]),
    );
    const called = replaced(childText, '{ expr: "data.amount + coalesce(data.fee, 0)" }', '{ expr: "functions." }');
    expect(labels(await completeIn(uriOf(CHILD), called, '{ expr: "functions.'))).toEqual(
      expect.arrayContaining(["isCrossBorder", "transferFee", "invoiceTotal"]),
    );
  });

  test("where a name starts: the roots, the core operators with their help, the functions", async () => {
    const typed = replaced(parentText, LIMIT_TEXT, '{ expr: "data.amount <= ro" }');
    const items = await completeIn(uriOf(PARENT), typed, '{ expr: "data.amount <= ro');
    expect(labels(items)).toEqual(expect.arrayContaining(["data", "params", "round", "between", "daysUntil"]));
    expect(items.find((item) => item.label === "round")).toMatchObject({ detail: "round(number, places?)" });
    expect(items.find((item) => item.label === "daysUntil")).toMatchObject({ detail: "(date)" });
  });

  test("inside a string literal of the text, nothing", async () => {
    const typed = replaced(parentText, LIMIT_TEXT, '{ expr: "data.purpose == \\"da" }');
    expect(await completeIn(uriOf(PARENT), typed, '{ expr: "data.purpose == \\"da')).toEqual([]);
  });

  test("an expr member that is data (a golden test's request) is not an expression: nothing", async () => {
    const typed = `${parentText}  - name: data holding expr\n    request: { entity: Transfer, operation: create, data: { expr: "data." } }\n    expect: { decision: allow }\n`;
    expect(await completeIn(uriOf(PARENT), typed, 'data: { expr: "data.')).toEqual([]);
  });

  test("in a block scalar, on its second line", async () => {
    const typed = replaced(parentText, LIMIT_TEXT, "\n      expr: |\n        data.amount <=\n          params.");
    expect(labels(await completeIn(uriOf(PARENT), typed, "  params.", undefined, "expr: |"))).toEqual(
      expect.arrayContaining(["singleTransferLimit", "approvalThreshold"]),
    );
  });

  afterAll(() => {
    change(uriOf(PARENT), parentText);
    change(uriOf(CHILD), childText);
  });
});

describe("hover inside a text", () => {
  test("an operator symbol, a data path, a param, a call of a function with its body as text", async () => {
    const limit = "data.amount <= params.singleTransferLimit";
    expect(await hoverIn(uriOf(PARENT), parentText, limit, 13)).toContain("**lte**(number, number)");
    expect(await hoverIn(uriOf(PARENT), parentText, limit, 7)).toBe(
      "`data.amount`: number (Transfer schema)\n\nAmount in the transfer currency.",
    );
    expect(await hoverIn(uriOf(PARENT), parentText, limit, 25)).toContain(
      "param **singleTransferLimit**: number = `100000`",
    );
    const call = await hoverIn(uriOf(PARENT), parentText, "daysUntil(data.executionDate) >= 0", 3);
    expect(call).toContain("function **daysUntil**(date)");
    expect(call).toContain("daysBetween(ctx.now, arg.date)");
    // Hovering a text says nothing of the text it is.
    expect(call).not.toContain("as text");
  });

  test("an expression written as a tree shows its text: on its operator the call's, on its key the whole", async () => {
    const tree = replaced(
      parentText,
      '{ expr: "coalesce(data.amount, 0) > 0" }',
      "{ op: gt, args: [{ op: coalesce, args: [{ var: data.amount }, 0] }, 0] }",
    );
    const onGt = await hoverIn(uriOf(PARENT), tree, "{ op: gt, args: [{ op: coalesce", 7);
    expect(onGt).toContain("**gt**(number, number)");
    expect(onGt).toContain("as text:\n\n```\ncoalesce(data.amount, 0) > 0\n```");
    expect(await hoverIn(uriOf(PARENT), tree, "op: coalesce", 6)).toContain("```\ncoalesce(data.amount, 0)\n```");
    expect(await hoverIn(uriOf(PARENT), tree, "assert: { op: gt", 2)).toBe(
      "as text:\n\n```\ncoalesce(data.amount, 0) > 0\n```",
    );
    change(uriOf(PARENT), parentText);
  });
});

describe("definition inside a text", () => {
  test("a param to its declaration, a function call to its definition, a data path into the schema", async () => {
    expect(await definitionIn(uriOf(PARENT), parentText, "params.singleTransferLimit", 10, LIMIT_TEXT)).toEqual([
      { uri: uriOf(PARENT), line: lineOf(parentText, "\n  singleTransferLimit:") },
    ]);
    expect(await definitionIn(uriOf(PARENT), parentText, "daysUntil(data.executionDate)", 4)).toEqual([
      { uri: uriOf(PARENT), line: lineOf(parentText, "\n  daysUntil:") },
    ]);
    expect(await definitionIn(uriOf(CHILD), childText, "transferFee(data.amount", 4)).toEqual([
      { uri: uriOf(CHILD), line: lineOf(childText, "\n  transferFee:") },
    ]);
    // An inherited param read in the child goes to the parent's declaration.
    expect(await definitionIn(uriOf(CHILD), childText, "params.approvalThreshold", 10)).toEqual([
      { uri: uriOf(PARENT), line: lineOf(parentText, "\n  approvalThreshold:") },
    ]);
    const schemaText = readFileSync(SCHEMA, "utf8");
    const party = lineOf(schemaText, "\n    Party:");
    expect(await definitionIn(uriOf(PARENT), parentText, "data.beneficiary.country in params.sanctioned", 20)).toEqual([
      {
        uri: uriOf(SCHEMA),
        line: party - 1 + lineOf(schemaText.slice(schemaText.indexOf("\n    Party:")), "country:") - 1,
      },
    ]);
  });
});

describe("references from inside a text", () => {
  test("a param read in a text: its declaration and every read, each at its place in its text, and the child's override", async () => {
    change(uriOf(PARENT), parentText);
    const references = await client.request<{ uri: string; range: { start: { line: number; character: number } } }[]>(
      "textDocument/references",
      {
        textDocument: { uri: uriOf(PARENT) },
        position: at(parentText, "params.singleTransferLimit", 10, LIMIT_TEXT),
        context: { includeDeclaration: true },
      },
    );
    const inParent = references
      .filter((location) => location.uri === uriOf(PARENT))
      .map((location) => location.range.start);
    const reads = [...parentText.matchAll(/params\.singleTransferLimit\b/g)].map((match) =>
      positionAt(parentText, match.index),
    );
    expect(inParent).toEqual(expect.arrayContaining(reads));
    expect(inParent).toHaveLength(reads.length + 1);
    expect(references.filter((location) => location.uri === uriOf(CHILD)).length).toBeGreaterThanOrEqual(1);
  });
});

describe("diagnostics inside a text", () => {
  /** Where the parent's first diagnostic with `code` starts once its text is `text`. */
  async function diagnosedAt(text: string, code: string) {
    const before = client.publishedCount(uriOf(PARENT));
    change(uriOf(PARENT), text);
    const diagnostics = await client.waitForDiagnostics(
      uriOf(PARENT),
      (list) => list.some((entry) => entry.code === code),
      before,
    );
    return diagnostics.find((entry) => entry.code === code)!.range.start;
  }

  test("an unknown path, an undeclared param, an unknown function and a text that does not read start at their character", async () => {
    const unknownPath = replaced(parentText, LIMIT_TEXT, '{ expr: "data.amout <= params.singleTransferLimit" }');
    expect(await diagnosedAt(unknownPath, "PATH_UNKNOWN")).toEqual(at(unknownPath, "data.amout", 0));
    const unknownParam = replaced(parentText, LIMIT_TEXT, '{ expr: "data.amount <= params.singleTransferLimt" }');
    expect(await diagnosedAt(unknownParam, "PARAM_UNDECLARED")).toEqual(
      at(unknownParam, "params.singleTransferLimt", 0),
    );
    const unknownFunction = replaced(
      parentText,
      "daysUntil(data.executionDate) >= 0",
      "daysUntl(data.executionDate) >= 0",
    );
    expect(await diagnosedAt(unknownFunction, "FUNCTION_UNKNOWN")).toEqual(at(unknownFunction, "daysUntl(", 0));
    const unread = replaced(parentText, LIMIT_TEXT, "{ expr: 'data.amount <= params.singleTransferLimit &&' }");
    expect(await diagnosedAt(unread, "EXPRESSION_TEXT_INVALID")).toEqual(
      at(unread, "' }", 0, "singleTransferLimit &&"),
    );
    change(uriOf(PARENT), parentText);
  });
});
