import { describe, expect, spyOn, test } from "bun:test";
import type { Credential } from "../../../src/server/auth/credential-entry.ts";
import { CredentialSet, withDefaultCredential } from "../../../src/server/auth/credential-set.ts";
import { CredentialsError } from "../../../src/server/auth/credentials-error.ts";
import { tokenDigest } from "../../../src/server/auth/token-digest.ts";

const CI = "ci-token-0123456789abcdef";
const OPS = "ops-token-0123456789abcdef";
const SERVER_TOKEN = "server-token-0123456789abcdef";

const ci: Credential = { name: "ci", digest: tokenDigest(CI), scopes: ["evaluate"] };
const ops: Credential = { name: "ops", digest: tokenDigest(OPS), scopes: ["read", "operate"] };
const fromFile = (...credentials: Credential[]) => ({ ok: true as const, path: "/etc/credentials.yaml", credentials });

describe("a credential set", () => {
  const set = new CredentialSet([ci, ops]);

  test("gives the caller of each token, with its name and scopes and nothing else", () => {
    expect(set.callerOf(CI)).toEqual({ name: "ci", scopes: new Set(["evaluate"]) });
    expect(set.callerOf(OPS)).toEqual({ name: "ops", scopes: new Set(["read", "operate"]) });
    expect(Object.keys(set.callerOf(OPS)!)).toEqual(["name", "scopes"]);
  });

  test.each([
    ["a wrong token", "no-such-token-0123456789"],
    ["an empty token", ""],
    ["a prefix", CI.slice(0, -1)],
    ["a longer token", `${CI}0`],
    ["another case", CI.toUpperCase()],
  ])("gives no caller for %s", (_, token) => {
    expect(set.callerOf(token)).toBeUndefined();
  });

  test("compares with every credential whatever matched", () => {
    const compare = spyOn(crypto, "timingSafeEqual");
    try {
      set.callerOf(CI);
      set.callerOf(OPS);
      set.callerOf("no-such-token-0123456789");
      expect(compare).toHaveBeenCalledTimes(6);
    } finally {
      compare.mockRestore();
    }
  });

  test("of no credentials gives no caller", () => {
    expect(new CredentialSet([]).callerOf(CI)).toBeUndefined();
  });

  test("names its credentials in order", () => {
    expect(set.names).toEqual(["ci", "ops"]);
  });

  test.each([
    ["a name", { ...ops, name: "ci" }, '"ci" is named twice'],
    ["a token", { ...ops, digest: tokenDigest(CI) }, "the same token as another credential"],
  ])("refuses %s given twice", (_, second, message) => {
    let thrown: unknown;
    try {
      new CredentialSet([ci, second]);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(CredentialsError);
    expect((thrown as CredentialsError).code).toBe("CREDENTIALS_INVALID");
    expect((thrown as CredentialsError).problems).toEqual([{ place: "[1]", message }]);
  });
});

describe("RULE_SERVER_TOKEN", () => {
  test("alone is the credential default, with every scope", () => {
    const all = withDefaultCredential(undefined, SERVER_TOKEN);
    if (!all.ok) throw all.error;
    const caller = new CredentialSet(all.credentials).callerOf(SERVER_TOKEN);
    expect(caller).toEqual({ name: "default", scopes: new Set(["evaluate", "read", "operate"]) });
  });

  test("works beside a file's credentials", () => {
    const all = withDefaultCredential(fromFile(ci, ops), SERVER_TOKEN);
    if (!all.ok) throw all.error;
    const set = new CredentialSet(all.credentials);
    expect(set.names).toEqual(["ci", "ops", "default"]);
    expect(set.callerOf(SERVER_TOKEN)?.name).toBe("default");
    expect(set.callerOf(CI)?.name).toBe("ci");
  });

  test.each([[undefined], [""]])("unset (%p) leaves a file's credentials as they are", (token) => {
    expect(withDefaultCredential(fromFile(ci), token)).toEqual({ ok: true, credentials: [ci] });
    expect(withDefaultCredential(undefined, token)).toEqual({ ok: true, credentials: [] });
  });

  test("is refused beside a file credential named default", () => {
    const all = withDefaultCredential(fromFile(ci, { ...ops, name: "default" }), SERVER_TOKEN);
    if (all.ok) throw new Error("accepted");
    expect(all.error.code).toBe("CREDENTIALS_INVALID");
    expect(all.error.source).toBe("/etc/credentials.yaml");
    expect(all.error.problems).toEqual([
      {
        place: "credentials[1].name",
        message: `"default" is the name of RULE_SERVER_TOKEN's credential: rename this one, or unset RULE_SERVER_TOKEN`,
      },
    ]);
  });

  test("is refused when a file credential has the same token, without quoting it", () => {
    const all = withDefaultCredential(fromFile(ci, ops), OPS);
    if (all.ok) throw new Error("accepted");
    expect(all.error.problems).toEqual([
      {
        place: "credentials[1]",
        message: "has the same token as RULE_SERVER_TOKEN: each credential needs its own token",
      },
    ]);
    expect(all.error.message).not.toContain(OPS);
  });
});
