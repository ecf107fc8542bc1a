import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { formatProblem } from "../../src/cli/check-report/text-report.ts";
import { escapeData, escapeProperty } from "../../src/cli/check-report/github-report.ts";
import { xml } from "../../src/xml/xml-text.ts";
import { CASES_DIR } from "../support/golden-files.ts";
import { PROJECT_ROOT, runCli } from "../support/run-cli.ts";
import { temporaryDirectory } from "../support/temp-directory.ts";

/** `check --format text|json|github|junit`: one set of problems, written for a terminal, machines, GitHub and JUnit readers. */
const located = JSON.parse(readFileSync(join(CASES_DIR, "located-problems", "several-mistakes.json"), "utf8")) as {
  cases: { files: Record<string, string>; problems: { code: string; line: number; column: number; rule?: string }[] }[];
};
const threeMistakes = located.cases[0]!;
const shopDir = join(CASES_DIR, "interop", "shop");
const broken = temporaryDirectory({
  ...threeMistakes.files,
  "failing.ruleset.yaml": readFileSync(join(shopDir, "shop-order.ruleset.yaml"), "utf8").replace(
    "decision: deny",
    "decision: allow",
  ),
  "order.schema.json": readFileSync(join(shopDir, "order.schema.json"), "utf8"),
});
const empty = temporaryDirectory({ "notes.txt": "nothing here\n" });
// Problems in other files than the ruleset's own: a schema file, a bundle, a second file with one ruleset id.
const goldenCase = (file: string, index: number): { files: Record<string, string> } =>
  (
    JSON.parse(readFileSync(join(CASES_DIR, "located-problems", file), "utf8")) as {
      cases: { files: Record<string, string> }[];
    }
  ).cases[index]!;
const brokenSchema = goldenCase("schema-files.json", 0).files;
const others = temporaryDirectory({
  ...brokenSchema,
  "again.ruleset.yaml": brokenSchema["loans.ruleset.yaml"]!,
  "loans.bundle.json": goldenCase("bundles.json", 4).files["loans.bundle.json"]!,
});
// A ruleset that loads with two warnings (RULE_UNREACHABLE at its when, ENUM_VALUE_UNKNOWN at the literal).
const unreachable = (
  JSON.parse(readFileSync(join(CASES_DIR, "check-warnings", "unreachable-rules.json"), "utf8")) as {
    cases: {
      files: Record<string, string>;
      compile: string;
      warnings: { code: string; line: number; column: number; rule: string; message: string; suggestion?: string }[];
    }[];
  }
).cases[0]!;
const warned = temporaryDirectory(unreachable.files);
afterAll(() => {
  broken.remove();
  empty.remove();
  others.remove();
  warned.remove();
});
const loans = join(broken.path, "loans.ruleset.yaml");
// Paths are written relative to the working directory (the project root in these runs) when below it.
const shown = (file: string): string =>
  relative(PROJECT_ROOT, file).startsWith("..") ? file : relative(PROJECT_ROOT, file);

describe("text", () => {
  test("each problem is path:line:column: CODE [rule] message, all three at once", async () => {
    const run = await runCli(["check", loans]);
    expect(run.status).toBe(1);
    const lines = run.stdout
      .split("\n")
      .filter((line) => line.includes(": SCHEMA_INVALID") || line.includes(": PATH_UNKNOWN"));
    expect(lines).toEqual(
      threeMistakes.problems.map((problem) =>
        expect.stringMatching(
          new RegExp(
            `^${shown(loans).replace(/[.\\/]/g, "\\$&")}:${problem.line}:${problem.column}: ${problem.code} \\[${problem.rule}\\] `,
          ),
        ),
      ),
    );
    expect(run.stdout).toContain(
      "`dta` is not a variable root (data, original, actor, ctx, params, item, value, field, arg): did you mean `data`?",
    );
  });

  test("every line that is not a file's header, a golden test or the totals is a problem in the annotate-able form", async () => {
    const run = await runCli(["check", broken.path, others.path]);
    expect(run.status).toBe(1);
    const lines = run.stdout.trimEnd().split("\n");
    const header = /^\S.*: (?:ok|\d+ problem\(s\))$/;
    const problemLines = lines.filter(
      (line) => !header.test(line) && !line.startsWith(" ") && !/^(?:OK|FAILED): /.test(line),
    );
    for (const line of problemLines) expect(line).toMatch(/^(.+):(\d+):(\d+): ([A-Z_]+) (\[[^\]]+\] )?.+$/);
    expect(problemLines.length).toBe(Number(/ (\d+) problem\(s\), /.exec(lines.at(-1)!)?.[1]));
    const codes = new Set(problemLines.map((line) => /: ([A-Z_]+) /.exec(line)?.[1]));
    for (const code of [
      "SCHEMA_INVALID",
      "PATH_UNKNOWN",
      "SOURCE_INVALID",
      "SCHEMA_REF_UNRESOLVED",
      "BUNDLE_INVALID",
      "RULESET_DUPLICATE",
    ])
      expect(codes).toContain(code);
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}FAIL /));
  });

  test("a problem of the whole file is put at 1:1, and a message that spans lines is kept on one", () => {
    expect(
      formatProblem(
        {
          code: "FILE_UNREADABLE",
          message: "cannot read the file:\n  EACCES",
          file: "/rules/a.bundle.json",
        },
        PROJECT_ROOT,
      ),
    ).toBe("/rules/a.bundle.json:1:1: FILE_UNREADABLE cannot read the file: EACCES");
  });

  test("--json keeps the document and gives each problem its line and column", async () => {
    const run = await runCli(["check", "--json", loans]);
    const report = JSON.parse(run.stdout);
    expect(report.ok).toBe(false);
    expect(
      report.files[0].problems.map((problem: { code: string; line: number; column: number }) => [
        problem.code,
        problem.line,
        problem.column,
      ]),
    ).toEqual(threeMistakes.problems.map((problem) => [problem.code, problem.line, problem.column]));
    expect((await runCli(["check", "--format", "json", loans])).stdout).toBe(run.stdout);
  });

  test("an unknown format is a usage error", async () =>
    expect((await runCli(["check", "--format", "xml", loans])).status).toBe(2));
});

describe("github", () => {
  test("an ::error workflow command per problem and failed golden test, at its place", async () => {
    const run = await runCli(["check", "--format", "github", broken.path]);
    expect(run.status).toBe(1);
    const commands = run.stdout.split("\n").filter((line) => line.startsWith("::"));
    for (const problem of threeMistakes.problems) {
      expect(commands).toContainEqual(
        expect.stringMatching(
          new RegExp(
            `^::error file=${escapeProperty(shown(loans)).replace(/[.\\/]/g, "\\$&")},line=${problem.line},col=${problem.column},title=${problem.code}::\\[${problem.rule}\\] `,
          ),
        ),
      );
    }
    // A failed golden test is placed at its name, with expected against actual after its failures.
    expect(commands).toContainEqual(
      expect.stringMatching(
        /^::error file=[^:]*failing\.ruleset\.yaml,line=\d+,col=11,title=GOLDEN_TEST_FAILED::too many items is denied.*%0A- decision: "allow"%0A\+ decision: "deny"/,
      ),
    );
  });

  test("escapes % CR LF in messages, and : , too in properties", () => {
    expect(escapeData("50% a\r\nb: c, d")).toBe("50%25 a%0D%0Ab: c, d");
    expect(escapeProperty("C:\\rules\\a,b%.yaml")).toBe("C%3A\\rules\\a%2Cb%25.yaml");
  });
});

describe("junit", () => {
  test("one testsuite per file, a failed testcase per problem and failed golden test", async () => {
    const run = await runCli(["check", "--format", "junit", broken.path]);
    expect(run.status).toBe(1);
    const document = parseXml(run.stdout);
    expect(document.name).toBe("testsuites");
    const suites = document.children.filter((child) => child.name === "testsuite");
    expect(suites.map((suite) => suite.attributes.name)).toEqual([
      shown(join(broken.path, "failing.ruleset.yaml")),
      shown(loans),
    ]);
    const loanCases = suites[1]!.children;
    expect(loanCases.map((testcase) => testcase.children[0]?.attributes.type)).toEqual(
      threeMistakes.problems.map((problem) => problem.code),
    );
    expect(loanCases[0]!.attributes.name).toBe(
      `SCHEMA_INVALID at ${threeMistakes.problems[0]!.line}:${threeMistakes.problems[0]!.column} [loan.fee.compute]`,
    );
    const failing = suites[0]!.children;
    expect(failing[0]!.attributes.name).toBe("loads");
    expect(failing.some((testcase) => testcase.children[0]?.attributes.type === "GOLDEN_TEST_FAILED")).toBe(true);
    expect(suites[0]!.attributes.failures).toBe(
      String(failing.filter((testcase) => testcase.children.length > 0).length),
    );
  });

  test("escapes what XML cannot hold as text", () => {
    expect(xml(`<a b="c" d='e'> & \u0001`)).toBe("&lt;a b=&quot;c&quot; d=&apos;e&apos;&gt; &amp; \uFFFD");
  });
});

describe("warnings", () => {
  const file = join(warned.path, unreachable.compile);
  const [atWhen, atLiteral] = unreachable.warnings as [
    (typeof unreachable.warnings)[0],
    (typeof unreachable.warnings)[0],
  ];

  test("text: each warning is path:line:column: warning CODE [rule] message; the file stays ok, the totals count them, exit 0", async () => {
    const run = await runCli(["check", warned.path]);
    expect(run.status).toBe(0);
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines).toContain(`${shown(file)} (pay.rules): ok, 2 warning(s)`);
    expect(lines).toContain(
      `${shown(file)}:${atWhen.line}:${atWhen.column}: warning RULE_UNREACHABLE [${atWhen.rule}] ${atWhen.message}`,
    );
    expect(lines).toContain(
      `${shown(file)}:${atLiteral.line}:${atLiteral.column}: warning ENUM_VALUE_UNKNOWN [${atLiteral.rule}] ${atLiteral.message}`,
    );
    expect(lines.at(-1)).toBe("OK: 1 file(s), 0 problem(s), 2 warning(s), 0 test(s) passed, 0 failed");
  });

  test("json: a warnings list per file beside its problems, with the suggestion as data; ok stays true", async () => {
    const run = await runCli(["check", "--format", "json", warned.path]);
    expect(run.status).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.ok).toBe(true);
    expect(report.files[0].problems).toEqual([]);
    expect(report.files[0].warnings).toEqual(
      unreachable.warnings.map((warning) => ({
        code: warning.code,
        message: warning.message,
        rule: warning.rule,
        ...(warning.suggestion === undefined ? {} : { didYouMean: warning.suggestion }),
        file,
        line: warning.line,
        column: warning.column,
      })),
    );
  });

  test("github: a ::warning workflow command per warning, at its place; exit 0", async () => {
    const run = await runCli(["check", "--format", "github", warned.path]);
    expect(run.status).toBe(0);
    const commands = run.stdout.split("\n").filter((line) => line.startsWith("::"));
    expect(commands).toEqual(
      unreachable.warnings.map(
        (warning) =>
          `::warning file=${escapeProperty(shown(file))},line=${warning.line},col=${warning.column},title=${warning.code}::[${warning.rule}] ${escapeData(warning.message)}`,
      ),
    );
  });

  test("junit: a passed testcase per warning, its message in system-out; no failures", async () => {
    const run = await runCli(["check", "--format", "junit", warned.path]);
    expect(run.status).toBe(0);
    const document = parseXml(run.stdout);
    expect(document.attributes.failures).toBe("0");
    const suite = document.children[0]!;
    expect(suite.attributes).toEqual({ name: shown(file), tests: "3", failures: "0" });
    expect(suite.children.map((testcase) => testcase.attributes.name)).toEqual([
      "loads",
      `warning RULE_UNREACHABLE at ${atWhen.line}:${atWhen.column} [${atWhen.rule}]`,
      `warning ENUM_VALUE_UNKNOWN at ${atLiteral.line}:${atLiteral.column} [${atLiteral.rule}]`,
    ]);
    expect(suite.children.slice(1).map((testcase) => testcase.children.map((child) => child.name))).toEqual([
      ["system-out"],
      ["system-out"],
    ]);
    expect(run.stdout).toContain(
      `<system-out>${xml(`${shown(file)} at ${atLiteral.line}:${atLiteral.column}: warning ENUM_VALUE_UNKNOWN: ${atLiteral.message}`)}</system-out>`,
    );
  });

  test("--strict: the warnings are problems, in every format; exit 1", async () => {
    const text = await runCli(["check", "--strict", warned.path]);
    expect(text.status).toBe(1);
    const lines = text.stdout.trimEnd().split("\n");
    expect(lines).toContain(`${shown(file)} (pay.rules): 2 problem(s)`);
    expect(lines).toContain(
      `${shown(file)}:${atWhen.line}:${atWhen.column}: RULE_UNREACHABLE [${atWhen.rule}] ${atWhen.message}`,
    );
    expect(lines).toContain(
      `${shown(file)}:${atLiteral.line}:${atLiteral.column}: ENUM_VALUE_UNKNOWN [${atLiteral.rule}] ${atLiteral.message}`,
    );
    expect(lines.at(-1)).toBe("FAILED: 1 file(s), 2 problem(s), 0 warning(s), 0 test(s) passed, 0 failed");

    const json = await runCli(["check", "--strict", "--json", warned.path]);
    expect(json.status).toBe(1);
    const report = JSON.parse(json.stdout);
    expect(report.ok).toBe(false);
    expect(report.files[0].warnings).toEqual([]);
    expect(
      report.files[0].problems.map((problem: { code: string; line: number; column: number }) => [
        problem.code,
        problem.line,
        problem.column,
      ]),
    ).toEqual(unreachable.warnings.map((warning) => [warning.code, warning.line, warning.column]));

    const github = await runCli(["check", "--strict", "--format", "github", warned.path]);
    expect(github.status).toBe(1);
    expect(
      github.stdout
        .split("\n")
        .filter((line) => line.startsWith("::"))
        .map((line) => line.slice(0, line.indexOf(" "))),
    ).toEqual(["::error", "::error"]);

    const junit = await runCli(["check", "--strict", "--format", "junit", warned.path]);
    expect(junit.status).toBe(1);
    expect(parseXml(junit.stdout).attributes.failures).toBe("2");
  });

  test("rules that are right give no warning: the example rules and the interop rulesets", async () => {
    // The interop sources, named as files: their directories also hold their bundles, which the server would refuse as duplicates.
    const interopSources = [
      "shop/shop-order.ruleset.yaml",
      "library/library-base.ruleset.yaml",
      "library/library-loans.ruleset.yaml",
    ].map((file) => join(CASES_DIR, "interop", file));
    const run = await runCli(["check", "--strict", join(PROJECT_ROOT, "rules"), ...interopSources]);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/\nOK: \d+ file\(s\), 0 problem\(s\), 0 warning\(s\), /);
  });
});

describe("no ruleset", () => {
  test("paths holding no ruleset or bundle: exit 1 and say so", async () => {
    const run = await runCli(["check", empty.path]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`no ruleset found in ${empty.path}`);
  });
});

describe("--help", () => {
  for (const command of [
    "check",
    "compile",
    "manifest",
    "evaluate",
    "schema",
    "cron",
    "engine",
    "version",
    "serve",
    "help",
  ]) {
    test(`${command} --help prints its usage and exits 0`, async () => {
      const run = await runCli([command, "--help"]);
      expect(run.status).toBe(0);
      expect(run.stdout).toContain("Usage:");
      expect(run.stdout).toContain(command === "serve" ? "rule-server [serve]" : `rule-server ${command}`);
    });
  }
});

/** A small XML reader for the report: elements, attributes and nesting, failing on anything unbalanced. */
interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
}

function parseXml(text: string): XmlElement {
  const body = text.replace(/^<\?xml[^>]*\?>\s*/, "");
  const root: XmlElement = { name: "", attributes: {}, children: [] };
  const stack = [root];
  const unescapeXml = (value: string): string =>
    value.replace(
      /&(lt|gt|quot|apos|amp|#10|#13);/g,
      (_, entity: string) => ({ lt: "<", gt: ">", quot: '"', apos: "'", amp: "&", "#10": "\n", "#13": "\r" })[entity]!,
    );
  for (const match of body.matchAll(/<(\/?)([A-Za-z][A-Za-z-]*)((?:\s+[a-z]+="[^"<]*")*)\s*(\/?)>|([^<]+)/g)) {
    const [, closing, name, attributeText, selfClosing, content] = match;
    if (content !== undefined) {
      if (content.includes("&") && !/^(?:[^&]|&(?:lt|gt|quot|apos|amp|#10|#13);)*$/.test(content))
        throw new Error(`bad entity in ${content}`);
      continue;
    }
    if (closing) {
      const open = stack.pop()!;
      if (open.name !== name) throw new Error(`</${name}> closes <${open.name}>`);
      continue;
    }
    const attributes: Record<string, string> = {};
    for (const [, key, value] of attributeText!.matchAll(/([a-z]+)="([^"]*)"/g)) attributes[key!] = unescapeXml(value!);
    const element = { name: name!, attributes, children: [] };
    stack.at(-1)!.children.push(element);
    if (!selfClosing) stack.push(element);
  }
  if (stack.length !== 1 || root.children.length !== 1) throw new Error("unbalanced XML");
  return root.children[0]!;
}
