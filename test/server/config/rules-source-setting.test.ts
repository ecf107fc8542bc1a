import { describe, expect, test } from "bun:test";
import { readRulesSource } from "../../../src/server/config/rules-source-setting.ts";

const read = (env: Record<string, string>) => {
  const problems: string[] = [];
  const setting = readRulesSource(env, problems);
  return { setting, problems };
};

describe("RULES_SOURCE", () => {
  test("an oci:// reference with a cache and registry credentials", () => {
    expect(
      read({
        RULES_SOURCE: "oci://registry.example:5000/rules/payments:prod",
        RULES_SOURCE_CACHE: "/var/cache/rules",
        RULE_SERVER_REGISTRY_AUTH: "ci:secret",
      }),
    ).toEqual({
      setting: {
        ref: "oci://registry.example:5000/rules/payments:prod",
        cacheDirectory: "/var/cache/rules",
        registryAuth: "ci:secret",
      },
      problems: [],
    });
  });

  test("another rule-server over https, with its token; plain http only on this machine", () => {
    expect(read({ RULES_SOURCE: "https://rules.internal:8443", RULES_SOURCE_TOKEN: "t" })).toEqual({
      setting: { ref: "https://rules.internal:8443", token: "t" },
      problems: [],
    });
    expect(read({ RULES_SOURCE: "http://127.0.0.1:8080" }).problems).toEqual([]);
    expect(read({ RULES_SOURCE: "http://rules.internal:8080" }).problems).toEqual([
      "RULES_SOURCE over plain http:// is allowed only on this machine (localhost); use https:// for rules.internal:8080",
    ]);
  });

  test("an empty RULES_DIR beside it is unset (the container image sets one)", () => {
    expect(read({ RULES_SOURCE: "oci://r/x:1", RULES_DIR: "" }).problems).toEqual([]);
  });

  test("unset, it is no source; its companions alone are a mistake", () => {
    expect(read({})).toEqual({ setting: undefined, problems: [] });
    expect(read({ RULES_SOURCE_CACHE: "/x", RULES_SOURCE_TOKEN: "t" }).problems).toEqual([
      "RULES_SOURCE_TOKEN is set but RULES_SOURCE is not: set RULES_SOURCE too, or unset RULES_SOURCE_TOKEN",
      "RULES_SOURCE_CACHE is set but RULES_SOURCE is not: set RULES_SOURCE too, or unset RULES_SOURCE_CACHE",
    ]);
  });

  test("both RULES_DIR and RULES_SOURCE, a scheme it cannot pull, credentials in the URL, companions of the other kind", () => {
    expect(read({ RULES_SOURCE: "oci://r/x:1", RULES_DIR: "./rules" }).problems).toEqual([
      "RULES_DIR and RULES_SOURCE are both set: the rules come from one of them (the container image sets RULES_DIR=/rules: set RULES_DIR to the empty string)",
    ]);
    expect(read({ RULES_SOURCE: "s3://bucket/rules" }).problems[0]).toStartWith("RULES_SOURCE must be oci://");
    expect(read({ RULES_SOURCE: "rules" }).problems[0]).toStartWith("RULES_SOURCE must be oci://");
    expect(read({ RULES_SOURCE: "https://user:pw@rules.internal" }).problems).toEqual([
      "RULES_SOURCE must not hold credentials: put the token in RULES_SOURCE_TOKEN",
    ]);
    expect(read({ RULES_SOURCE: "oci://r/x:1", RULES_SOURCE_TOKEN: "t" }).problems[0]).toStartWith(
      "RULES_SOURCE_TOKEN is for another rule-server",
    );
    expect(read({ RULES_SOURCE: "https://r", RULE_SERVER_REGISTRY_AUTH: "a:b" }).problems[0]).toStartWith(
      "RULE_SERVER_REGISTRY_AUTH is for an oci:// source",
    );
    expect(read({ RULES_SOURCE: "oci://r/x:1", RULE_SERVER_REGISTRY_AUTH: "nopassword" }).problems).toEqual([
      "RULE_SERVER_REGISTRY_AUTH must be user:password",
    ]);
  });
});
