import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CASES_DIR } from "../support/golden-files.ts";
import { MAIN } from "../support/run-cli.ts";

/**
 * `rule-server test --coverage` on the fixture of test/cases/coverage (a parent whose rules a
 * child's test also runs, a short-circuited `or` and `and`, a rule never selected): the exact
 * JSON, lcov and Cobertura reports, read back by the tools CI services use (lcov, genhtml,
 * xmllint with the Cobertura DTD), and the same figures whatever the layout of the source.
 */
const FIXTURE = join(CASES_DIR, "coverage");
let work: string;

/** Runs the command in `cwd` (paths in the reports are relative to it), the Cobertura timestamp fixed. */
async function runTest(
  cwd: string,
  args: readonly string[],
): Promise<{ status: number; stdout: string; stderr: string }> {
  const child = Bun.spawn([process.execPath, MAIN, "test", ...args], {
    cwd,
    env: { ...process.env, SOURCE_DATE_EPOCH: "1700000000" },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, status] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { status, stdout, stderr };
}

async function tool(cwd: string, command: readonly string[]): Promise<{ status: number; output: string }> {
  const child = Bun.spawn([...command], { cwd, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, status] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { status, output: stdout + stderr };
}

beforeAll(async () => {
  // A copy, so that the reports' paths are the same wherever the project lies: `rules/...`.
  work = mkdtempSync(join(tmpdir(), "rule-server-coverage-"));
  cpSync(join(FIXTURE, "rules"), join(work, "rules"), { recursive: true });
  const run = await runTest(work, ["rules", "--coverage-format", "json,lcov,cobertura", "--coverage-out", "out"]);
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const written = (name: string): string => readFileSync(join(work, "out", name), "utf8").replaceAll(work, "<work>");
const expected = (name: string): string => readFileSync(join(FIXTURE, "expected", name), "utf8");

describe("the reports of the fixture", () => {
  test("coverage.json: totals, each rule with the tests that selected it, each decision point, the uncovered items and why", () =>
    expect(JSON.parse(written("coverage.json"))).toEqual(JSON.parse(expected("coverage.json"))));
  test("lcov.info: a function per rule at its id, two branches per decision point, a line per expression line", () =>
    expect(written("lcov.info")).toBe(expected("lcov.info")));
  test("cobertura.xml: a class per file, a method per rule, the lines with their conditions", () =>
    expect(written("cobertura.xml")).toBe(expected("cobertura.xml")));

  test("a child's test that runs a parent's rule counts for the parent's file and line", () => {
    const report = JSON.parse(written("coverage.json")) as {
      files: { file: string; rules: { rule: string; line: number; tests: string[] }[] }[];
    };
    const parent = report.files.find((file) => file.file === "rules/base.ruleset.yaml")!;
    const notes = parent.rules.find((rule) => rule.rule === "order.express.notes")!;
    expect(notes.tests).toContain(
      "cov.child: an express order of few items gets no notes, and a bad coupon is refused",
    );
    expect(readFileSync(join(work, "rules", "base.ruleset.yaml"), "utf8").split("\n")[notes.line - 1]).toContain(
      "id: order.express.notes",
    );
  });
});

describe("read by the tools CI services use", () => {
  test("lcov --summary gives the totals of the JSON report", async () => {
    const summary = await tool(work, ["lcov", "--summary", "out/lcov.info", "--rc", "lcov_branch_coverage=1"]);
    expect(summary.status).toBe(0);
    const totals = (
      JSON.parse(written("coverage.json")) as { totals: Record<string, { covered: number; total: number }> }
    ).totals;
    expect(summary.output).toContain(
      `lines......: ${percent(totals.lines!)}% (${totals.lines!.covered} of ${totals.lines!.total} lines)`,
    );
    expect(summary.output).toContain(
      `functions..: ${percent(totals.functions!)}% (${totals.functions!.covered} of ${totals.functions!.total} functions)`,
    );
    expect(summary.output).toContain(
      `branches...: ${percent(totals.branches!)}% (${totals.branches!.covered} of ${totals.branches!.total} branches)`,
    );
  });

  test("genhtml renders the lcov file beside the sources without error", async () => {
    const html = await tool(work, [
      "genhtml",
      "--branch-coverage",
      "--quiet",
      "--output-directory",
      "html",
      "out/lcov.info",
    ]);
    expect(html.output).not.toContain("ERROR");
    expect(html.status).toBe(0);
    expect(existsSync(join(work, "html", "rules", "base.ruleset.yaml.gcov.html"))).toBe(true);
  });

  test("the Cobertura file is valid against the coverage-04 DTD; a file missing its packages is not", async () => {
    const dtd = join(FIXTURE, "coverage-04.dtd");
    const valid = await tool(work, ["xmllint", "--nonet", "--noout", "--dtdvalid", dtd, "out/cobertura.xml"]);
    expect(valid.output).not.toContain("validity error");
    expect(valid.status).toBe(0);
    writeFileSync(join(work, "broken.xml"), written("cobertura.xml").replace(/<packages>[\s\S]*<\/packages>/, ""));
    const invalid = await tool(work, ["xmllint", "--nonet", "--noout", "--dtdvalid", dtd, "broken.xml"]);
    expect(invalid.status).not.toBe(0);
  });
});

test("the same ruleset as block YAML, flow YAML and JSON has the same coverage", async () => {
  const figures = async (layout: string): Promise<unknown> => {
    const run = await runTest(join(FIXTURE, "layouts", layout), [".", "--coverage", "--format", "json"]);
    expect(run.status).toBe(0);
    const coverage = (
      JSON.parse(run.stdout) as {
        coverage: {
          totals: Record<string, unknown>;
          files: {
            rules: unknown[];
            decisions: {
              rule: string;
              pointer: string;
              operator?: string;
              evaluated: number;
              true: number;
              false: number;
            }[];
            uncovered: { rule: string; pointer?: string; reason: string }[];
          }[];
        };
      }
    ).coverage;
    const file = coverage.files[0]!;
    // Lines differ with the layout (and so the count of expression lines); nothing else may.
    const { lines: _lines, ...totals } = coverage.totals;
    return {
      totals,
      rules: file.rules.map((rule) => ({ ...(rule as object), line: undefined, column: undefined })),
      decisions: file.decisions.map(({ rule, pointer, operator, evaluated, true: yes, false: no }) => ({
        rule,
        pointer,
        operator,
        evaluated,
        yes,
        no,
      })),
      uncovered: file.uncovered.map(({ rule, pointer, reason }) => ({ rule, pointer, reason })),
    };
  };
  const block = await figures("block");
  expect(await figures("flow")).toEqual(block);
  expect(await figures("json")).toEqual(block);
  expect((block as { totals: { rules: { total: number } } }).totals.rules.total).toBe(5);
});

function percent(ratio: { covered: number; total: number }): string {
  return ((ratio.covered / ratio.total) * 100).toFixed(1);
}
