import { afterEach, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { commandHelp } from "../../src/cli/help-text.ts";
import { runCli } from "../support/run-cli.ts";
import { temporaryDirectory } from "../support/temp-directory.ts";

/**
 * `rule-server fmt`: expressions rewritten as text or as trees in place, every other line of the
 * file as it was; `--check` for CI; files whose texts do not parse left alone.
 */
const directories: { remove: () => void }[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) directory.remove();
});

function directoryWith(files: Record<string, string>): string {
  const directory = temporaryDirectory(files);
  directories.push(directory);
  return directory.path;
}

async function fmt(directory: string, ...args: string[]) {
  return runCli(["fmt", ...args], "", { cwd: directory });
}

function read(directory: string, name: string): string {
  return readFileSync(join(directory, name), "utf8");
}

const HEAD = `# Orders: the limits a shop applies.
ruleCascade: "1.0.0"
kind: RuleSet
metadata: { id: shop.fmt, version: 1.0.0, title: Formatting }
`;

const TREES = `${HEAD}functions:
  double:
    params: [amount]
    # twice the amount
    body: { op: mul, args: [{ var: arg.amount }, 2] }
rules:
  - id: order.quantity.max # the upper bound
    kind: validation
    target: { entity: Order }
    operations: [create]
    assert:
      op: and
      args:
        - { op: lte, args: [{ var: data.quantity }, { var: params.maxQuantity }] }
        - { op: ne, args: [{ var: data.note }, "say \\"hi\\""] }
    severity: error

    finding:
      code: ORD-1
      message: tooMany
      args: { qty: { var: data.quantity }, label: "qty" }
`;

const TEXTS = `${HEAD}functions:
  double:
    params: [amount]
    # twice the amount
    body: { expr: "arg.amount * 2" }
rules:
  - id: order.quantity.max # the upper bound
    kind: validation
    target: { entity: Order }
    operations: [create]
    assert: { expr: 'data.quantity <= params.maxQuantity && data.note != "say \\"hi\\""' }
    severity: error

    finding:
      code: ORD-1
      message: tooMany
      args: { qty: { expr: "data.quantity" }, label: "qty" }
`;

test("--expressions text (the default) writes each expression as text on its key's line; comments and every other line stay", async () => {
  const directory = directoryWith({ "shop.ruleset.yaml": TREES });
  const run = await fmt(directory, "shop.ruleset.yaml");
  expect(run).toEqual({ status: 0, stdout: "formatted shop.ruleset.yaml\n", stderr: "" });
  // Literals stay literals (`label: "qty"`); quotes are single where the text holds double ones.
  expect(read(directory, "shop.ruleset.yaml")).toBe(TEXTS);
});

test("--expressions tree writes trees in flow style where they fit on the line, in block style below the key where not", async () => {
  const directory = directoryWith({ "shop.ruleset.yaml": TEXTS });
  const run = await fmt(directory, "--expressions", "tree", "shop.ruleset.yaml");
  expect(run).toEqual({ status: 0, stdout: "formatted shop.ruleset.yaml\n", stderr: "" });
  expect(read(directory, "shop.ruleset.yaml")).toBe(TREES.replace('"say \\"hi\\""', `'say "hi"'`));
});

test("a comment between a key and its expression stays, and the expression is written where it starts", async () => {
  const source = TREES.replace("    assert:\n      op: and", "    assert:\n      # both must hold\n      op: and");
  const directory = directoryWith({ "shop.ruleset.yaml": source });
  await fmt(directory, "shop.ruleset.yaml");
  expect(read(directory, "shop.ruleset.yaml")).toContain(
    `    assert:\n      # both must hold\n      { expr: 'data.quantity <= params.maxQuantity && data.note != "say \\"hi\\""' }\n    severity: error\n`,
  );
  await fmt(directory, "--expressions", "tree", "shop.ruleset.yaml");
  expect(read(directory, "shop.ruleset.yaml")).toBe(source.replace('"say \\"hi\\""', `'say "hi"'`));
});

test("a tree the text cannot hold stays a tree, and its arguments are written as text each", async () => {
  const source = `${HEAD}rules:
  - id: r1
    kind: validation
    target: { entity: Order }
    operations: [create]
    when: { op: frobnicate, args: [{ op: gt, args: [{ var: data.a }, 1] }, { var: "data.first name" }] }
    assert: { var: "data.first name" }
    severity: error
    finding: { code: E-1, message: m }
`;
  const directory = directoryWith({ "odd.ruleset.yaml": source });
  const run = await fmt(directory, "odd.ruleset.yaml");
  expect(run.status).toBe(0);
  expect(read(directory, "odd.ruleset.yaml")).toBe(
    source.replace("[{ op: gt, args: [{ var: data.a }, 1] }, ", '[{ expr: "data.a > 1" }, '),
  );
});

test("a long tree after a `- ` goes on in block style lined up after it; a tree before a comment stays on its line", async () => {
  const long = "concat(data.alpha, data.beta, data.gamma, data.delta, data.epsilon, data.zeta, data.eta, data.theta)";
  const source = `${HEAD}rules:
  - id: r1
    kind: action
    target: { entity: Order }
    operations: [create]
    when: { expr: "${long} == data.key" } # kept on its line
    commands:
      - name: order.notify
        type: event
        idempotencyKey:
          - { expr: "${long}" }
`;
  const directory = directoryWith({ "long.ruleset.yaml": source });
  await fmt(directory, "--expressions", "tree", "long.ruleset.yaml");
  const members = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"];
  const flowArgs = members.map((member) => `{ var: data.${member} }`).join(", ");
  expect(read(directory, "long.ruleset.yaml")).toBe(`${HEAD}rules:
  - id: r1
    kind: action
    target: { entity: Order }
    operations: [create]
    when: { op: eq, args: [{ op: concat, args: [${flowArgs}] }, { var: data.key }] } # kept on its line
    commands:
      - name: order.notify
        type: event
        idempotencyKey:
          - op: concat
            args:
${members.map((member) => `              - { var: data.${member} }`).join("\n")}
`);
  await fmt(directory, "long.ruleset.yaml");
  expect(read(directory, "long.ruleset.yaml")).toBe(source);
});

const JSON_TREES = `{
    "ruleCascade": "1.0.0",
    "kind": "RuleSet",
    "metadata": {"id": "shop.json", "version": "1.0.0", "title": "JSON"},
    "rules": [
        {
            "id": "r1",
            "kind": "validation",
            "target": {"entity": "Order"},
            "operations": ["create"],
            "when": {"op": "gt", "args": [{"var": "data.quantity"}, 0]},
            "assert": {
                "op": "and",
                "args": [
                    {"op": "lte", "args": [{"var": "data.quantity"}, {"var": "params.maxQuantity"}]},
                    {"op": "matches", "args": [{"var": "data.code"}, "^[A-Z]{4}$"]}
                ]
            },
            "severity": "error",
            "finding": {"code": "E-1", "message": "m"}
        }
    ]
}
`;

const JSON_TEXTS = `{
    "ruleCascade": "1.0.0",
    "kind": "RuleSet",
    "metadata": {"id": "shop.json", "version": "1.0.0", "title": "JSON"},
    "rules": [
        {
            "id": "r1",
            "kind": "validation",
            "target": {"entity": "Order"},
            "operations": ["create"],
            "when": {"expr": "data.quantity > 0"},
            "assert": {"expr": "data.quantity <= params.maxQuantity && matches(data.code, \\"^[A-Z]{4}$\\")"},
            "severity": "error",
            "finding": {"code": "E-1", "message": "m"}
        }
    ]
}
`;

test("a JSON source keeps its indentation, its key order and how it writes objects on one line", async () => {
  const directory = directoryWith({ "shop.ruleset.json": JSON_TREES });
  expect((await fmt(directory, "shop.ruleset.json")).stdout).toBe("formatted shop.ruleset.json\n");
  expect(read(directory, "shop.ruleset.json")).toBe(JSON_TEXTS);
  // Back to trees: the one too wide for its line is broken over lines, four spaces a level.
  await fmt(directory, "--expressions", "tree", "shop.ruleset.json");
  expect(read(directory, "shop.ruleset.json")).toBe(JSON_TREES);
});

test("a JSON source that writes every member on its own line gets its expressions so", async () => {
  const source = `${JSON.stringify(
    {
      ruleCascade: "1.0.0",
      kind: "RuleSet",
      metadata: { id: "shop.expanded", version: "1.0.0", title: "Expanded" },
      rules: [
        {
          id: "r1",
          kind: "validation",
          target: { entity: "Order" },
          operations: ["create"],
          assert: { op: "gt", args: [{ var: "data.quantity" }, 0] },
          severity: "error",
          finding: { code: "E-1", message: "m" },
        },
      ],
    },
    null,
    2,
  )}\n`;
  const directory = directoryWith({ "expanded.ruleset.json": source });
  await fmt(directory, "expanded.ruleset.json");
  const texts = read(directory, "expanded.ruleset.json");
  expect(texts).toBe(
    source.replace(/"assert": \{[\s\S]*?\n {6}\},/, '"assert": {\n        "expr": "data.quantity > 0"\n      },'),
  );
  await fmt(directory, "--expressions", "tree", "expanded.ruleset.json");
  expect(read(directory, "expanded.ruleset.json")).toBe(source);
});

test("--check writes nothing, names each file that would change and exits 1; 0 with no output once formatted", async () => {
  const directory = directoryWith({ "a.ruleset.yaml": TREES, "b.ruleset.yaml": TEXTS });
  const check = await fmt(directory, "--check", "a.ruleset.yaml", "b.ruleset.yaml");
  expect(check).toEqual({ status: 1, stdout: "would format a.ruleset.yaml\n", stderr: "" });
  expect(read(directory, "a.ruleset.yaml")).toBe(TREES);
  const trees = await fmt(directory, "--check", "--expressions", "tree", "a.ruleset.yaml", "b.ruleset.yaml");
  expect(trees).toEqual({ status: 1, stdout: "would format b.ruleset.yaml\n", stderr: "" });
  await fmt(directory, "a.ruleset.yaml");
  expect(await fmt(directory, "--check", "a.ruleset.yaml", "b.ruleset.yaml")).toEqual({
    status: 0,
    stdout: "",
    stderr: "",
  });
});

test("formatting a formatted file changes nothing and prints nothing", async () => {
  const directory = directoryWith({ "shop.ruleset.yaml": TEXTS });
  expect(await fmt(directory, "shop.ruleset.yaml")).toEqual({ status: 0, stdout: "", stderr: "" });
  expect(read(directory, "shop.ruleset.yaml")).toBe(TEXTS);
});

test("a text that does not parse leaves its file untouched, is reported at its character, and exits 1; other files are formatted", async () => {
  const broken = TEXTS.replace("arg.amount * 2", "arg.amount * * 2");
  const directory = directoryWith({ "broken.ruleset.yaml": broken, "shop.ruleset.yaml": TREES });
  const run = await fmt(directory, "--expressions", "tree", "broken.ruleset.yaml", "shop.ruleset.yaml");
  expect(run.status).toBe(1);
  expect(run.stdout).toBe("");
  // Line 9 is `    body: { expr: "arg.amount * * 2" }`: the second `*` is its 33rd character.
  expect(run.stderr).toBe(
    "broken.ruleset.yaml:9:33: EXPRESSION_TEXT_INVALID expected a value, found `*` (in `arg.amount * * 2`)\n",
  );
  expect(read(directory, "broken.ruleset.yaml")).toBe(broken);
  expect(read(directory, "shop.ruleset.yaml")).toBe(TREES);
});

test("a directory: its ruleset sources, in name order, as check lists them; other files are not touched", async () => {
  const bundle = '{"bundleFormat": "1.0", "rules": [{"when": {"op": "gt", "args": [{"var": "data.a"}, 1]}}]}\n';
  const directory = directoryWith({
    "b.ruleset.yaml": TREES,
    "a.ruleset.json": JSON_TREES,
    "c.bundle.json": bundle,
    "notes.yaml": TREES,
  });
  const run = await fmt(directory, ".");
  expect(run).toEqual({ status: 0, stdout: "formatted a.ruleset.json\nformatted b.ruleset.yaml\n", stderr: "" });
  expect(read(directory, "c.bundle.json")).toBe(bundle);
  expect(read(directory, "notes.yaml")).toBe(TREES);
});

test("a named file that is not a ruleset source, or a directory with none, is refused with exit 1", async () => {
  const directory = directoryWith({ "notes.yaml": TREES });
  expect(await fmt(directory, "notes.yaml")).toEqual({
    status: 1,
    stdout: "",
    stderr: "rule-server fmt: notes.yaml is not a ruleset source (*.ruleset.yaml, *.ruleset.yml or *.ruleset.json)\n",
  });
  expect(await fmt(directory, ".")).toEqual({
    status: 1,
    stdout: "",
    stderr: "rule-server fmt: no ruleset source found in .\n",
  });
});

test("a form other than text or tree is a usage error; --help prints the usage", async () => {
  const run = await runCli(["fmt", "--expressions", "json", "rules"]);
  expect(run.status).toBe(2);
  expect(run.stderr).toStartWith("rule-server: fmt: --expressions is text or tree, not json\n");
  expect(await runCli(["fmt", "--help"])).toEqual({ status: 0, stdout: commandHelp("fmt"), stderr: "" });
});
