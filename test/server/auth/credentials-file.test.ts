import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CredentialSet } from "../../../src/server/auth/credential-set.ts";
import type { CredentialsProblem } from "../../../src/server/auth/credentials-error.ts";
import { readCredentialsFile } from "../../../src/server/auth/credentials-file.ts";
import type { Credential } from "../../../src/server/auth/credential-entry.ts";
import { tokenDigest } from "../../../src/server/auth/token-digest.ts";

const work = mkdtempSync(join(tmpdir(), "rule-server-credentials-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

// Every token here holds "s3cret", so that no problem may quote one.
const CI = "ci-s3cret-0123456789abcdef";
const OPS = "ops-s3cret-0123456789abcdef";
const hex = (token: string): string => Buffer.from(tokenDigest(token)).toString("hex");

let files = 0;
function write(text: string): string {
  const path = join(work, `credentials-${files++}.yaml`);
  writeFileSync(path, text);
  return path;
}

/** A YAML file of the given entries, each written as a flow map. */
const entries = (...list: unknown[]): string =>
  `credentials:\n${list.map((e) => `  - ${JSON.stringify(e)}\n`).join("")}`;

function problemsOf(path: string): readonly CredentialsProblem[] {
  const read = readCredentialsFile(path);
  if (read.ok) throw new Error("the file was read");
  expect(read.error.code).toBe("CREDENTIALS_INVALID");
  expect(read.error.message).toStartWith(`${path}: `);
  expect(read.error.message).not.toContain("s3cret");
  return read.error.problems;
}

function onlyProblem(text: string): CredentialsProblem {
  const problems = problemsOf(write(text));
  expect(problems).toHaveLength(1);
  return problems[0]!;
}

describe("a credentials file is refused", () => {
  test("when it is missing", () => {
    expect(problemsOf(join(work, "absent.yaml"))).toEqual([
      { place: "", message: "cannot be read: there is no such file" },
    ]);
  });

  test("when it is a directory", () => {
    const directory = join(work, "a-directory");
    mkdirSync(directory);
    expect(problemsOf(directory)).toEqual([{ place: "", message: "cannot be read: it is a directory" }]);
  });

  test.each([
    [
      "YAML, at the line at fault",
      "credentials:\n  - name: ci\n   scopes: [read]\n",
      "line 3, column 1",
      /^not valid YAML: a character is missing/,
    ],
    ["JSON, told by its first character", '{"credentials": [', "line 1, column 18", /^not valid JSON: /],
    [
      "YAML with a key twice",
      "credentials: []\ncredentials: []\n",
      "line 2, column 1",
      /^not valid YAML: a key is given twice/,
    ],
    ["YAML of two documents", "credentials: []\n---\ncredentials: []\n", "line 2, column 1", /more than one document/],
    [
      "an escape in a token, not quoted",
      `credentials:\n  - token: "${CI}\\q"\n`,
      "line 2, column 39",
      /invalid escape sequence/,
    ],
    ["an alias without its anchor", "credentials: *none\n", "", /anchors and aliases cannot be resolved/],
  ])("when it is not %s", (_, text, place, message) => {
    const problem = onlyProblem(text);
    expect(problem.place).toBe(place);
    expect(problem.message).toMatch(message);
  });

  test.each([
    ["empty", "", "", "is empty: it must hold `credentials`, a list of credentials"],
    ["a list at the top", "- a\n", "", "must hold an object with `credentials`, a list of credentials"],
    ["without credentials", "{}\n", "", "`credentials` is missing: list the credentials"],
    ["with credentials not a list", "credentials: {name: ci}\n", "credentials", "must be a list of credentials"],
    ["with an empty list", '{"credentials": []}', "credentials", "is empty: list at least one credential"],
    [
      "with an entry not an object",
      "credentials: [ci]\n",
      "credentials[0]",
      "must be an object with name, token (or sha256) and scopes",
    ],
    [
      "with a null entry",
      "credentials:\n  -\n",
      "credentials[0]",
      "must be an object with name, token (or sha256) and scopes",
    ],
  ])("when it is %s", (_, text, place, message) => {
    expect(onlyProblem(text)).toEqual({ place, message });
  });

  const ci = { name: "ci", token: CI, scopes: ["evaluate"] };
  test("for an unknown member at the top, with what it was likely meant to be", () => {
    expect(problemsOf(write(`credentails: []\n`))).toEqual([
      {
        place: "credentails",
        message:
          "`credentails` is not a member of a credentials file: did you mean `credentials`? (it holds only `credentials`)",
      },
      { place: "", message: "`credentials` is missing: list the credentials" },
    ]);
  });

  test("for a name given twice, even beside other problems", () => {
    const text = entries(ci, { name: "ops", token: OPS, scopes: ["operate"] }, { name: "ci", scopes: ["read"] });
    expect(problemsOf(write(text))).toEqual([
      { place: "credentials[2]", message: expect.stringMatching(/^has neither/) },
      { place: "credentials[2].name", message: '"ci" is already the name of credentials[0]: names must differ' },
    ]);
  });

  test("for a token given twice, as a token or as its digest", () => {
    const text = entries(
      ci,
      { name: "ci-2", token: CI, scopes: ["read"] },
      { name: "ci-3", sha256: hex(CI).toUpperCase(), scopes: ["read"] },
    );
    expect(problemsOf(write(text))).toEqual([
      { place: "credentials[1]", message: "has the same token as credentials[0]: each credential needs its own token" },
      { place: "credentials[2]", message: "has the same token as credentials[0]: each credential needs its own token" },
    ]);
  });

  test("with every problem of every entry, in the file's order", () => {
    const text = entries({ ...ci, scopes: ["reed"] }, { name: "", token: "s3cret", scopes: [] });
    expect(problemsOf(write(text)).map((problem) => problem.place)).toEqual([
      "credentials[0].scopes[0]",
      "credentials[1].name",
      "credentials[1].token",
      "credentials[1].scopes",
    ]);
  });
});

describe("a credentials file is read", () => {
  const expected: Credential[] = [
    { name: "ci", digest: tokenDigest(CI), scopes: ["evaluate"] },
    { name: "ops", digest: tokenDigest(OPS), scopes: ["read", "operate"] },
  ];

  test("in YAML, a token kept only as its digest", () => {
    const text = `# who may call\ncredentials:\n  - name: ci\n    token: ${CI}\n    scopes: [evaluate]\n  - name: ops\n    sha256: ${hex(OPS)}\n    scopes:\n      - read\n      - operate\n`;
    const read = readCredentialsFile(write(text));
    expect(read).toEqual({ ok: true, path: expect.any(String), credentials: expected });
  });

  test("in JSON, whatever the file's name", () => {
    const json = {
      credentials: [
        { name: "ci", token: CI, scopes: ["evaluate", "evaluate"] },
        { name: "ops", sha256: hex(OPS), scopes: ["read", "operate"] },
      ],
    };
    const read = readCredentialsFile(write(JSON.stringify(json, null, 2)));
    expect(read).toEqual({ ok: true, path: expect.any(String), credentials: expected });
  });

  test("with a sha256 in capitals that matches its token", () => {
    const read = readCredentialsFile(
      write(entries({ name: "ops", sha256: hex(OPS).toUpperCase(), scopes: ["operate"] })),
    );
    if (!read.ok) throw read.error;
    expect(new CredentialSet(read.credentials).callerOf(OPS)?.name).toBe("ops");
    expect(new CredentialSet(read.credentials).callerOf(CI)).toBeUndefined();
  });
});
