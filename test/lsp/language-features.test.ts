import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";
import { LspClient, PROJECT_ROOT } from "../support/lsp-client.ts";
import { copyRulesWrittenAsTrees } from "../support/rules-written-as-trees.ts";

/**
 * Completion, hover, definition, references, symbols, quick fixes and test lenses of a real
 * `rule-server lsp` on a copy of the rules/ example, its expressions written as trees, asked the
 * way an editor asks (expression-text-features.test.ts asks the same inside texts).
 */
let client: LspClient;
const rules = mkdtempSync(join(tmpdir(), "rule-server-lsp-features-"));
copyRulesWrittenAsTrees(join(PROJECT_ROOT, "rules"), rules);
const PARENT = join(rules, "acme-payments.ruleset.yaml");
const CHILD = join(rules, "acme-payments-transfers.ruleset.yaml");
const uriOf = (file: string): string => Bun.pathToFileURL(file).href;
const parentText = readFileSync(PARENT, "utf8");
const childText = readFileSync(CHILD, "utf8");

/** The position `delta` characters into the first occurrence of `needle` (after `after`, when given). */
function at(text: string, needle: string, delta = needle.length, after = ""): { line: number; character: number } {
  const offset = text.indexOf(needle, after === "" ? 0 : text.indexOf(after)) + delta;
  if (offset < delta) throw new Error(`${needle} is not in the text`);
  const before = text.slice(0, offset);
  return { line: before.split("\n").length - 1, character: offset - before.lastIndexOf("\n") - 1 };
}

interface Item {
  label: string;
  detail?: string;
  documentation?: string;
}
const labels = (items: Item[]): string[] => items.map((item) => item.label).sort();
const hoverText = async (uri: string, position: { line: number; character: number }): Promise<string> =>
  (
    await client.request<{ contents: { value: string } } | null>("textDocument/hover", {
      textDocument: { uri },
      position,
    })
  )?.contents.value ?? "";
const definition = async (
  uri: string,
  position: { line: number; character: number },
): Promise<{ uri: string; line: number }[]> =>
  (
    await client.request<{ uri: string; range: { start: { line: number } } }[]>("textDocument/definition", {
      textDocument: { uri },
      position,
    })
  ).map((location) => ({ uri: location.uri, line: location.range.start.line + 1 }));
const lineOf = (text: string, needle: string): number => text.slice(0, text.indexOf(needle)).split("\n").length;

/** Replaces the open document's text (a full-text change) and completes at `needle` + `delta`. */
async function completeIn(uri: string, text: string, needle: string, delta?: number): Promise<Item[]> {
  client.notify("textDocument/didChange", { textDocument: { uri, version: Date.now() }, contentChanges: [{ text }] });
  return await client.request<Item[]>("textDocument/completion", {
    textDocument: { uri },
    position: at(text, needle, delta),
  });
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

describe("completion", () => {
  test("after op: the operators, with their arguments", async () => {
    const items = await completeIn(uriOf(PARENT), parentText.replace("op: lte", "op: l"), "op: l");
    expect(labels(items)).toContain("lte");
    expect(items.find((item) => item.label === "between")).toMatchObject({ detail: "between(number, low, high)" });
  });

  test("after data. exactly the members of the entity's schema; after data.beneficiary. those of Party", async () => {
    const schema = parse(readFileSync(join(rules, "payments.openapi.yaml"), "utf8")) as {
      components: { schemas: Record<string, { properties: Record<string, unknown> }> };
    };
    const typed = parentText.replace(
      "var: data.beneficiary.country }, { var: params.sanctionedCountries",
      "var: data. }, { var: params.sanctionedCountries",
    );
    expect(labels(await completeIn(uriOf(PARENT), typed, "var: data."))).toEqual(
      Object.keys(schema.components.schemas.Transfer!.properties).sort(),
    );
    const deeper = parentText.replace(
      "var: data.beneficiary.country }, { var: params.sanctionedCountries",
      "var: data.beneficiary. }, { var: params.sanctionedCountries",
    );
    expect(labels(await completeIn(uriOf(PARENT), deeper, "var: data.beneficiary."))).toEqual(
      Object.keys(schema.components.schemas.Party!.properties).sort(),
    );
  });

  test("var roots, params (inherited ones too), functions, message keys, entities, kinds, parent rulesets", async () => {
    expect(labels(await completeIn(uriOf(PARENT), parentText.replace("var: data.amount", "var: d"), "var: d"))).toEqual(
      ["actor", "arg", "ctx", "data", "field", "item", "original", "params", "value"],
    );
    const params = labels(
      await completeIn(
        uriOf(CHILD),
        childText.replace("var: data", "var: params.").replace("params.}", "params. }"),
        "var: params.",
      ),
    );
    expect(params).toEqual(expect.arrayContaining(["singleTransferLimit", "urgentFee", "crossBorderFeeRate"]));
    expect(labels(await completeIn(uriOf(CHILD), childText.replace("fn: transferFee", "fn: t"), "fn: t"))).toEqual(
      expect.arrayContaining(["isCrossBorder", "transferFee"]),
    );
    expect(
      labels(await completeIn(uriOf(PARENT), parentText.replace("message: ibanFormat", "message: i"), "message: i")),
    ).toEqual(expect.arrayContaining(["ibanFormat", "moneyInvalid", "countryCodeFormat"]));
    expect(
      labels(await completeIn(uriOf(PARENT), parentText.replace("entity: Transfer", "entity: T"), "entity: T")),
    ).toEqual(["Transfer"]);
    expect(
      labels(await completeIn(uriOf(PARENT), parentText.replace("kind: validation", "kind: v"), "kind: v")),
    ).toEqual(["action", "compute", "state", "validation"]);
    expect(
      labels(
        await completeIn(uriOf(CHILD), childText.replace("- ruleset: acme.payments", "- ruleset: a"), "- ruleset: a"),
      ),
    ).toEqual(["acme.customers.onboarding", "acme.payments"]);
  });

  test("where a key of a rule goes: the rule's members", async () => {
    const typed = parentText.replace("    kind: validation\n", "    kind: validation\n    sev\n");
    expect(labels(await completeIn(uriOf(PARENT), typed, "    sev"))).toEqual(
      expect.arrayContaining(["severity", "when", "assert", "finding", "enforcement", "forEach"]),
    );
  });

  afterAll(() => {
    client.notify("textDocument/didChange", {
      textDocument: { uri: uriOf(PARENT), version: Date.now() },
      contentChanges: [{ text: parentText }],
    });
    client.notify("textDocument/didChange", {
      textDocument: { uri: uriOf(CHILD), version: Date.now() },
      contentChanges: [{ text: childText }],
    });
  });
});

describe("hover", () => {
  test("an operator, a param as the child overrides it, a data path, a message key in every locale, a rule", async () => {
    expect(await hoverText(uriOf(PARENT), at(parentText, "op: lte", 5))).toContain("**lte**(number, number)");
    const limit = await hoverText(uriOf(CHILD), at(childText, "singleTransferLimit", 3, "params:"));
    expect(limit).toBe("");
    expect(await hoverText(uriOf(PARENT), at(parentText, "var: params.singleTransferLimit", 15))).toContain(
      "param **singleTransferLimit**: number = `100000`",
    );
    expect(await hoverText(uriOf(PARENT), at(parentText, "var: data.amount", 8))).toBe(
      "`data.amount`: number (Transfer schema)\n\nAmount in the transfer currency.",
    );
    const message = await hoverText(uriOf(PARENT), at(parentText, "message: ibanFormat", 12));
    expect(message).toMatch(/^message \*\*ibanFormat\*\*\n\n- en: .+\n- de: /);
    expect(await hoverText(uriOf(PARENT), at(parentText, "id: transfer.amount.limit", 8))).toContain(
      "rule **transfer.amount.limit**: validation on entity Transfer",
    );
  });
});

describe("definition and references", () => {
  test("a param to its declaration in the parent, a function, a message key, the parent ruleset, an overridden rule, a data path into the schema file", async () => {
    expect(await definition(uriOf(CHILD), at(childText, "fn: transferFee", 6))).toEqual([
      { uri: uriOf(CHILD), line: lineOf(childText, "  transferFee:") },
    ]);
    expect(await definition(uriOf(CHILD), at(childText, "- ruleset: acme.payments", 14))).toEqual([
      { uri: uriOf(PARENT), line: lineOf(parentText, "id: acme.payments") },
    ]);
    expect(await definition(uriOf(CHILD), at(childText, "- rule: transfer.reference.present", 12))).toEqual([
      { uri: uriOf(PARENT), line: lineOf(parentText, "id: transfer.reference.present") },
    ]);
    expect(await definition(uriOf(PARENT), at(parentText, "message: ibanFormat", 12))).toEqual([
      { uri: uriOf(PARENT), line: lineOf(parentText, "    ibanFormat:") },
    ]);
    expect(await definition(uriOf(PARENT), at(parentText, "var: params.singleTransferLimit", 15))).toEqual([
      { uri: uriOf(PARENT), line: lineOf(parentText, "  singleTransferLimit:") },
    ]);
    const schemaFile = join(rules, "payments.openapi.yaml");
    const schemaText = readFileSync(schemaFile, "utf8");
    expect(await definition(uriOf(PARENT), at(parentText, "var: data.beneficiary.country", 20))).toEqual([
      {
        uri: uriOf(schemaFile),
        line:
          lineOf(schemaText.slice(schemaText.indexOf("    Party:")), "        country:") +
          lineOf(schemaText, "    Party:") -
          1,
      },
    ]);
  });

  test("references of a rule: its declaration, the child's override, the tests that expect it; of a param: declaration, override, reads", async () => {
    const references = await client.request<{ uri: string }[]>("textDocument/references", {
      textDocument: { uri: uriOf(PARENT) },
      position: at(parentText, "id: transfer.reference.present", 8),
      context: { includeDeclaration: true },
    });
    expect(references.filter((location) => location.uri === uriOf(CHILD)).length).toBeGreaterThanOrEqual(1);
    expect(references.filter((location) => location.uri === uriOf(PARENT)).length).toBeGreaterThanOrEqual(1);
    const param = await client.request<{ uri: string }[]>("textDocument/references", {
      textDocument: { uri: uriOf(PARENT) },
      position: at(parentText, "var: params.singleTransferLimit", 15),
      context: { includeDeclaration: true },
    });
    const reads = (parentText.match(/params\.singleTransferLimit/g) ?? []).length;
    expect(param.filter((location) => location.uri === uriOf(PARENT))).toHaveLength(reads + 1);
    expect(param.filter((location) => location.uri === uriOf(CHILD))).toHaveLength(1);
  });
});

describe("symbols, quick fixes and test lenses", () => {
  test("the outline holds rules, params, functions, messages and tests; the workspace search finds rules", async () => {
    const symbols = await client.request<{ name: string; children?: { name: string }[] }[]>(
      "textDocument/documentSymbol",
      { textDocument: { uri: uriOf(CHILD) } },
    );
    expect(symbols.map((symbol) => symbol.name)).toEqual(["rules", "params", "functions", "messages", "tests"]);
    expect(symbols[0]!.children!.map((child) => child.name)).toContain("transfer.fee.compute");
    const found = await client.request<{ name: string; containerName?: string }[]>("workspace/symbol", {
      query: "fee.comp",
    });
    expect(found).toEqual([
      expect.objectContaining({ name: "transfer.fee.compute", containerName: "acme.payments.transfers" }),
    ]);
  });

  test("a did-you-mean becomes a quick fix that replaces the name", async () => {
    const typo = parentText.replace("op: lte", "op: lte3");
    const before = client.publishedCount(uriOf(PARENT));
    client.notify("textDocument/didChange", {
      textDocument: { uri: uriOf(PARENT), version: Date.now() },
      contentChanges: [{ text: typo }],
    });
    const diagnostics = await client.waitForDiagnostics(
      uriOf(PARENT),
      (list) => list.some((entry) => entry.data?.didYouMean === "lte"),
      before,
    );
    const diagnostic = diagnostics.find((entry) => entry.data?.didYouMean === "lte")!;
    const actions = await client.request<
      {
        title: string;
        edit: {
          changes: Record<
            string,
            { range: { start: { character: number }; end: { character: number } }; newText: string }[]
          >;
        };
      }[]
    >("textDocument/codeAction", {
      textDocument: { uri: uriOf(PARENT) },
      range: diagnostic.range,
      context: { diagnostics: [diagnostic] },
    });
    expect(actions[0]!.title).toBe("Change to lte");
    const edit = actions[0]!.edit.changes[uriOf(PARENT)]![0]!;
    const line = typo.split("\n")[diagnostic.range.start.line]!;
    expect(line.slice(0, edit.range.start.character) + edit.newText + line.slice(edit.range.end.character)).toBe(
      parentText.split("\n")[diagnostic.range.start.line]!,
    );
    client.notify("textDocument/didChange", {
      textDocument: { uri: uriOf(PARENT), version: Date.now() },
      contentChanges: [{ text: parentText }],
    });
  });

  test("Run N tests over tests:, Evaluate over each test; the commands answer the summary and the decision with its explanation", async () => {
    const lenses = await client.request<{ command: { title: string; command: string; arguments: unknown[] } }[]>(
      "textDocument/codeLens",
      { textDocument: { uri: uriOf(PARENT) } },
    );
    const tests = (parse(parentText) as { tests: unknown[] }).tests.length;
    expect(lenses[0]!.command.title).toBe(`Run ${tests} tests`);
    expect(lenses.filter((lens) => lens.command.title === "Evaluate")).toHaveLength(tests);
    const summary = await client.request<{ passed: number; failed: number }>("workspace/executeCommand", {
      command: lenses[0]!.command.command,
      arguments: lenses[0]!.command.arguments,
    });
    expect(summary).toMatchObject({ passed: tests, failed: 0 });
    const evaluate = lenses.find((lens) => lens.command.title === "Evaluate")!.command;
    const evaluated = await client.request<{
      decision: string;
      result: { explanation: { rules: { status: string; when?: unknown }[] } };
    }>("workspace/executeCommand", { command: evaluate.command, arguments: [...evaluate.arguments, "full"] });
    expect(evaluated.decision).toBe("allow");
    expect(evaluated.result.explanation.rules.some((rule) => rule.when !== undefined)).toBe(true);
  });

  test("a failing test becomes a diagnostic at its name, with the explanation", async () => {
    const broken = parentText.replace("decision: allow", "decision: deny");
    const before = client.publishedCount(uriOf(PARENT));
    client.notify("textDocument/didChange", {
      textDocument: { uri: uriOf(PARENT), version: Date.now() },
      contentChanges: [{ text: broken }],
    });
    const diagnostics = await client.waitForDiagnostics(
      uriOf(PARENT),
      (list) => list.some((entry) => entry.code === "GOLDEN_TEST_FAILED"),
      before,
    );
    const failed = diagnostics.find((entry) => entry.code === "GOLDEN_TEST_FAILED")!;
    expect(failed.range.start.line + 1).toBe(
      lineOf(parentText, "- name: a domestic transfer within policy is allowed"),
    );
    expect(failed.message).toContain("why, for the rules whose outcome differs:");
    client.notify("textDocument/didChange", {
      textDocument: { uri: uriOf(PARENT), version: Date.now() },
      contentChanges: [{ text: parentText }],
    });
  });
});
