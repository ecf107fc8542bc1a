import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CASES_DIR } from "../support/golden-files.ts";
import { COVERAGE_FILES, COVERAGE_FORMATS, DEFAULT_COVERAGE_OUT } from "../../src/cli/test-command.ts";
import { runCli } from "../support/run-cli.ts";

/**
 * `rule-server test`: the focused runner of the golden tests. Filters, exit statuses (0 passed,
 * 1 failed, 2 not loaded, 3 under the threshold), `--fail-on-empty`, and where a failing test is
 * said to be in each format, with its expected-against-actual diff.
 */
const FIXTURE = join(CASES_DIR, "coverage", "rules");
const FAILING_NAME = "a member's small order is allowed with a discount";
let failing: string;
let failingLine: number;

beforeAll(() => {
  // The fixture with one test of the parent expecting deny where the rules allow.
  failing = mkdtempSync(join(tmpdir(), "rule-server-test-command-"));
  cpSync(FIXTURE, failing, { recursive: true });
  const file = join(failing, "base.ruleset.yaml");
  const text = readFileSync(file, "utf8");
  const at = text.indexOf(`- name: ${FAILING_NAME}`);
  failingLine = text.slice(0, at).split("\n").length;
  const decision = text.indexOf("decision: allow", at);
  writeFileSync(file, `${text.slice(0, decision)}decision: deny${text.slice(decision + "decision: allow".length)}`);
});
afterAll(() => rmSync(failing, { recursive: true, force: true }));

describe("exit statuses", () => {
  test("0 when every test passed", async () => {
    const run = await runCli(["test", FIXTURE]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("PASS too many is denied");
    expect(run.stdout).toContain("OK: 2 file(s), 0 problem(s), 0 warning(s), 3 test(s) passed, 0 failed");
  });

  test("1 when a test failed", async () => expect((await runCli(["test", failing])).status).toBe(1));

  test("2 when a file does not load, even when the others' tests pass", async () => {
    const broken = mkdtempSync(join(tmpdir(), "rule-server-test-broken-"));
    try {
      cpSync(FIXTURE, broken, { recursive: true });
      writeFileSync(join(broken, "broken.ruleset.yaml"), "ruleCascade: '1.0.0'\nkind: RuleSet\n");
      const run = await runCli(["test", broken]);
      expect(run.status).toBe(2);
      expect(run.stdout).toContain("broken.ruleset.yaml:1:1: SCHEMA_INVALID");
    } finally {
      rmSync(broken, { recursive: true, force: true });
    }
  });

  test("3 when coverage is under --threshold, naming the figure and what is not covered", async () => {
    const run = await runCli(["test", FIXTURE, "--threshold", "rules=100,outcomes=50"]);
    expect(run.status).toBe(3);
    expect(run.stderr).toContain("coverage under the threshold: rules 33.33% (2/6) is under 100%");
    expect(run.stderr).not.toContain("outcomes");
    expect(run.stderr).toMatch(/base\.ruleset\.yaml:\d+:9: \[gift\.message\.length\] never selected/);
    expect((await runCli(["test", FIXTURE, "--threshold", "rules=33,outcomes=50"])).status).toBe(0);
  });

  test("a failed test wins over the threshold; a bad option is a usage error", async () => {
    expect((await runCli(["test", failing, "--threshold", "rules=100"])).status).toBe(1);
    const bad = await runCli(["test", FIXTURE, "--threshold", "lines=90"]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("--threshold takes rules=<percent> and outcomes=<percent>");
    expect((await runCli(["test", FIXTURE, "--coverage-format", "html"])).stderr).toContain(
      "--coverage-format takes json, lcov, cobertura",
    );
  });
});

describe("--filter and --fail-on-empty", () => {
  const names = (stdout: string): string[] =>
    [...stdout.matchAll(/^ {2}(?:PASS|FAIL) (.*)$/gm)].map((match) => match[1]!);

  test("a glob on the ruleset id runs that ruleset's tests", async () => {
    const run = await runCli(["test", FIXTURE, "--filter", "cov.ch*"]);
    expect(names(run.stdout)).toEqual(["an express order of few items gets no notes, and a bad coupon is refused"]);
  });

  test("a glob on the test name", async () =>
    expect(names((await runCli(["test", FIXTURE, "--filter", "*denied"])).stdout)).toEqual(["too many is denied"]));

  test("a glob on a rule id runs the tests that select the rule", async () => {
    expect(names((await runCli(["test", FIXTURE, "--filter", "order.coupon.*"])).stdout)).toEqual([
      "an express order of few items gets no notes, and a bad coupon is refused",
    ]);
    expect(names((await runCli(["test", FIXTURE, "--filter", "order.member.discount"])).stdout)).toHaveLength(3);
  });

  test("nothing matched passes, unless --fail-on-empty", async () => {
    expect((await runCli(["test", FIXTURE, "--filter", "nothing-*"])).status).toBe(0);
    const empty = await runCli(["test", FIXTURE, "--filter", "nothing-*", "--fail-on-empty"]);
    expect(empty.status).toBe(1);
    expect(empty.stderr).toContain("no test ran (none matches --filter nothing-*)");
  });

  test("with a filter, coverage counts only the tests that ran, over the rulesets they belong to", async () => {
    const run = await runCli(["test", FIXTURE, "--filter", "*denied", "--coverage", "--format", "json"]);
    const coverage = (
      JSON.parse(run.stdout) as { coverage: { files: { file: string; rules: { rule: string; tests: string[] }[] }[] } }
    ).coverage;
    expect(coverage.files.map((file) => file.file.split("/").pop())).toEqual(["base.ruleset.yaml"]);
    expect(coverage.files[0]!.rules.find((rule) => rule.rule === "order.quantity.max")!.tests).toEqual([
      "cov.base: too many is denied",
    ]);
  });
});

describe("a failing test is located at its name and shows expected against actual", () => {
  test("text: the place, the failure, the diff and why", async () => {
    const run = await runCli(["test", failing]);
    expect(run.stdout).toContain(`FAIL ${FAILING_NAME} at ${join(failing, "base.ruleset.yaml")}:${failingLine}:11`);
    expect(run.stdout).toContain(
      [
        "       expected (-) against actual (+):",
        '         - decision: "deny"',
        '         + decision: "allow"',
        "           findings:",
      ].join("\n"),
    );
    expect(run.stdout).toContain("why, for the rules whose outcome differs:");
  });

  test("json: line, column and diff on the test", async () => {
    const run = await runCli(["test", failing, "--format", "json"]);
    const report = JSON.parse(run.stdout) as {
      ok: boolean;
      files: { tests: { name: string; line?: number; column?: number; diff?: string[] }[] }[];
    };
    const test = report.files.flatMap((file) => file.tests).find((entry) => entry.name === FAILING_NAME)!;
    expect(report.ok).toBe(false);
    expect(test).toMatchObject({ line: failingLine, column: 11 });
    expect(test.diff).toEqual([
      '- decision: "deny"',
      '+ decision: "allow"',
      "  findings:",
      "  effects:",
      '    {"type":"value","field":"/discount","value":5}',
    ]);
  });

  test("junit: the testcase has the file and line, the failure the place and the diff", async () => {
    const run = await runCli(["test", failing, "--format", "junit"]);
    const file = join(failing, "base.ruleset.yaml");
    expect(run.stdout).toContain(
      `<testcase classname="${file}" name="${FAILING_NAME.replace("'", "&apos;")}" file="${file}" line="${failingLine}">`,
    );
    // Line breaks inside the failure are written as character references.
    expect(run.stdout).toContain(
      `${file}:${failingLine}:11&#10;decision is &quot;allow&quot;, expected &quot;deny&quot;&#10;expected (-) against actual (+):&#10;- decision: &quot;deny&quot;`,
    );
  });

  test("github: an error annotation at the test's line and column", async () => {
    const run = await runCli(["test", failing, "--format", "github"]);
    expect(run.stdout).toContain(
      `::error file=${join(failing, "base.ruleset.yaml")},line=${failingLine},col=11,title=GOLDEN_TEST_FAILED::${FAILING_NAME}: decision is "allow", expected "deny"%0A- decision: "deny"`,
    );
  });
});

test("check also places a failing golden test at its name", async () => {
  const run = await runCli(["check", failing, "--format", "json"]);
  expect(run.status).toBe(1);
  const tests = (JSON.parse(run.stdout) as { files: { tests: { name: string; line?: number }[] }[] }).files.flatMap(
    (file) => file.tests,
  );
  expect(tests.find((entry) => entry.name === FAILING_NAME)).toMatchObject({ line: failingLine, column: 11 });
});

describe("--help says the coverage defaults, and they are what the command does", () => {
  test("each format's file, the default directory, no file and no threshold unless asked", async () => {
    const help = (await runCli(["test", "--help"])).stdout.replace(/\s+/g, " ");
    for (const format of COVERAGE_FORMATS) expect(help).toContain(`${format} ${COVERAGE_FILES[format]}`);
    expect(help).toContain(
      `into --coverage-out (default: ${DEFAULT_COVERAGE_OUT}, in the working directory; made when missing)`,
    );
    expect(help).toContain("no file is written unless --coverage-format names formats (none by default)");
    expect(help).toContain("no threshold by default");
  });

  test("--coverage alone writes no file; --coverage-format writes into ./coverage", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "rule-server-coverage-defaults-"));
    const run = (...args: string[]) => runCli(["test", FIXTURE, ...args], "", { cwd });
    try {
      const summary = await run("--coverage");
      expect(summary.status).toBe(0);
      expect(summary.stdout).toContain("coverage: rules ");
      expect(readdirSync(cwd)).toEqual([]);
      expect((await run("--coverage-format", "lcov")).status).toBe(0);
      expect(readdirSync(join(cwd, DEFAULT_COVERAGE_OUT))).toEqual([COVERAGE_FILES.lcov]);
      expect(existsSync(join(cwd, DEFAULT_COVERAGE_OUT, COVERAGE_FILES.json))).toBe(false);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});

test("the Cobertura timestamp is SOURCE_DATE_EPOCH's, read from the command's environment", async () => {
  const out = mkdtempSync(join(tmpdir(), "rule-server-cobertura-"));
  try {
    const args = ["test", FIXTURE, "--coverage-format", "cobertura", "--coverage-out", out];
    const run = await runCli(args, "", { env: { SOURCE_DATE_EPOCH: "1700000000" } });
    expect(run.status).toBe(0);
    expect(readFileSync(join(out, COVERAGE_FILES.cobertura), "utf8")).toContain(' timestamp="1700000000000"');
    expect((await runCli(args, "", { env: {} })).status).toBe(0);
    const now = Number(/ timestamp="(\d+)"/.exec(readFileSync(join(out, COVERAGE_FILES.cobertura), "utf8"))![1]);
    expect(Math.abs(now - Date.now())).toBeLessThan(60_000);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
