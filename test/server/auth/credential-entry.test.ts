import { describe, expect, test } from "bun:test";
import { checkCredentialEntry } from "../../../src/server/auth/credential-entry.ts";
import { tokenDigest } from "../../../src/server/auth/token-digest.ts";

// Every token here holds "s3cret", so that no problem may quote one.
const CI = "ci-s3cret-0123456789abcdef";
const hex = (token: string): string => Buffer.from(tokenDigest(token)).toString("hex");
const ci = { name: "ci", token: CI, scopes: ["evaluate"] };
const byDigest = { name: "ci", scopes: ["read"] };

/** The one problem of an entry at `credentials[0]`: its place after that prefix, and its message. */
function onlyProblem(entry: unknown): { at: string; message: string } {
  const checked = checkCredentialEntry(entry, "credentials[0]");
  expect(checked.credential).toBeUndefined();
  expect(checked.problems).toHaveLength(1);
  const { place, message } = checked.problems[0]!;
  expect(message).not.toContain("s3cret");
  expect(place).toStartWith("credentials[0]");
  return { at: place.slice("credentials[0]".length), message };
}

describe("a credential entry is refused", () => {
  test.each([
    ["not an object", "ci", "", /^must be an object with name, token \(or sha256\) and scopes$/],
    ["a list", [ci], "", /^must be an object/],
    ["no name", { token: CI, scopes: ["read"] }, "", /^`name` is missing: name the credential for log lines$/],
    ["an empty name", { ...ci, name: " " }, ".name", /^is empty$/],
    ["a name not a string", { ...ci, name: 7 }, ".name", /^must be a string$/],
    ["both token and sha256", { ...ci, sha256: hex(CI) }, "", /^has both `token` and `sha256`: give one of them$/],
    ["neither token nor sha256", byDigest, "", /^has neither `token` nor `sha256`: give the token, or its SHA-256/],
    ["a short token", { ...ci, token: "s3cret-0123456" }, ".token", /^is shorter than 16 characters: anyone/],
    ["a token with a space", { ...ci, token: `${CI} x` }, ".token", /^holds whitespace or a control character: no/],
    ["a token with a control character", { ...ci, token: `${CI}\u0007` }, ".token", /^holds whitespace/],
    ["a token with a no-break space", { ...ci, token: `${CI}\u00a0` }, ".token", /^holds whitespace/],
    ["a token not a string", { ...ci, token: 1234567890123456 }, ".token", /^must be a string \(quote it\)$/],
    ["a sha256 of 63 digits", { ...byDigest, sha256: hex(CI).slice(1) }, ".sha256", /^must be the token's SHA-256/],
    ["a sha256 not hex", { ...byDigest, sha256: `${hex(CI).slice(1)}g` }, ".sha256", /as 64 hex digits, quoted/],
    ["a sha256 not a string", { ...byDigest, sha256: 42 }, ".sha256", /as 64 hex digits/],
    ["the sha256 of an empty token", { ...byDigest, sha256: hex("") }, ".sha256", /^is the digest of an empty token/],
    ["no scopes", { name: "ci", token: CI }, "", /^`scopes` is missing: list what .* \(evaluate, read, operate\)$/],
    ["empty scopes", { ...ci, scopes: [] }, ".scopes", /^is empty: list what the credential may do/],
    [
      "scopes not a list",
      { ...ci, scopes: "read" },
      ".scopes",
      /^must be a list of scopes \(.*\): write it as a list, \[read\]$/,
    ],
    [
      "an unknown scope",
      { ...ci, scopes: ["read", "evalute"] },
      ".scopes[1]",
      /^`evalute` is not a scope: did you mean `evaluate`\?/,
    ],
    [
      "a scope far from any",
      { ...ci, scopes: ["admin"] },
      ".scopes[0]",
      /^`admin` is not a scope \(the scopes are evaluate, read, operate\)$/,
    ],
    [
      "a scope not a string",
      { ...ci, scopes: [1] },
      ".scopes[0]",
      /^must be a scope name \(evaluate, read, operate\)$/,
    ],
    [
      "an unknown member",
      { ...ci, scope: ["read"] },
      ".scope",
      /^`scope` is not a member of a credential: did you mean `scopes`\?/,
    ],
  ])("with %s", (_, entry, at, message) => {
    const problem = onlyProblem(entry);
    expect(problem.at).toBe(at);
    expect(problem.message).toMatch(message);
  });
});

describe("a credential entry is taken", () => {
  test("with its token as its digest, and each scope once", () => {
    const checked = checkCredentialEntry({ ...ci, scopes: ["read", "evaluate", "read"] }, "credentials[0]");
    expect(checked).toEqual({
      credential: { name: "ci", digest: tokenDigest(CI), scopes: ["read", "evaluate"] },
      problems: [],
    });
  });

  test("with its sha256, in either case", () => {
    for (const sha256 of [hex(CI), hex(CI).toUpperCase()])
      expect(checkCredentialEntry({ ...byDigest, sha256 }, "credentials[0]").credential?.digest).toEqual(
        tokenDigest(CI),
      );
  });
});
