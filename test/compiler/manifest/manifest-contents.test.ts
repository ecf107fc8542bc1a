import { describe, expect, test } from "bun:test";
import { compileRuleset } from "../../../src/compiler/compile-ruleset.ts";
import { canonicalJson } from "../../../src/engine/value/canonical-json.ts";
import type { JsonObject } from "../../../src/engine/value/json-value.ts";
import { sha256Hex } from "../../../src/compiler/checksum/sha256.ts";

/**
 * What each manifest carries (specification section 7) and what the checksum covers (section 6):
 * the client manifest keeps only client-safe rules and the functions, params and messages they
 * reach; `operators` lists the custom operators reachable through rules and functions, sorted.
 */
const document: JsonObject = {
  ruleCascade: "1.0.0",
  kind: "RuleSet",
  metadata: { id: "acme.manifest.test", version: "1.0.0", title: "Manifest contents", status: "active" },
  scope: [{ level: "organization", id: "acme" }],
  entities: {
    Order: { schema: { $ref: "./order.json" }, fieldTypes: { "/total": "Money" } },
    Note: { schema: { $ref: "./note.json" } },
  },
  types: { Money: { base: "number" } },
  operators: {
    "x-zeta": { description: "server only" },
    "x-alpha": { description: "via a function" },
    "x-unused": { description: "never called" },
  },
  params: {
    limit: { type: "number", default: 10 },
    secret: { type: "number", default: 99 },
    reached: { type: "number", default: 1 },
  },
  functions: {
    outer: { params: ["v"], body: { fn: "inner", args: [{ var: "arg.v" }] } },
    inner: {
      params: ["v"],
      body: { op: "x-alpha", args: [{ op: "add", args: [{ var: "arg.v" }, { var: "params.reached" }] }] },
    },
    serverOnly: { params: [], body: { op: "x-zeta", args: [{ var: "params.secret" }] } },
  },
  rules: [
    {
      id: "client.limit",
      kind: "validation",
      target: { entity: "Order", field: "/total" },
      operations: ["create"],
      enforcement: "both",
      assert: { op: "lte", args: [{ fn: "outer", args: [{ var: "data.total" }] }, { var: "params.limit" }] },
      severity: "error",
      finding: { code: "ACME-LIM-001", message: "overLimit" },
    },
    {
      id: "server.check",
      kind: "validation",
      target: { entity: "Order" },
      operations: ["create"],
      enforcement: "server",
      assert: { fn: "serverOnly", args: [] },
      severity: "error",
      finding: { code: "ACME-SRV-001", message: "serverSecret" },
    },
    {
      id: "client.only",
      kind: "state",
      target: { entity: "Note", field: "/text" },
      operations: ["update"],
      enforcement: "client",
      when: true,
      effects: [{ field: "/text", set: { visible: true } }],
    },
    {
      id: "notify",
      kind: "action",
      target: { entity: "Order" },
      operations: ["create"],
      enforcement: "server",
      commands: [{ name: "order.created", type: "event", idempotencyKey: ["o"] }],
    },
  ],
  messages: {
    en: { overLimit: "Too much.", serverSecret: "Internal check.", unused: "Never used." },
    de: { overLimit: "Zu viel." },
  },
  tests: [],
};

const compiled = compileRuleset(document);
const manifests = compiled.bundle.manifests as Record<string, JsonObject>;
const client = manifests.client!;
const server = manifests.server!;
const ids = (manifest: JsonObject): unknown => (manifest.rules as JsonObject[]).map((rule) => rule.id);

describe("the server manifest", () => {
  test("holds every rule, function, param and message", () => {
    expect(ids(server)).toEqual(["client.limit", "server.check", "client.only", "notify"]);
    expect(Object.keys(server.functions as JsonObject).sort()).toEqual(["inner", "outer", "serverOnly"]);
    expect(server.params).toEqual({ limit: 10, secret: 99, reached: 1 });
    expect(server.messages).toEqual(document.messages!);
  });
  test("lists the custom operators its rules reach, through functions too, sorted; not the unused one", () =>
    expect(server.operators).toEqual(["x-alpha", "x-zeta"]));
  test("carries functions as params and body only", () =>
    expect((server.functions as JsonObject).outer).toEqual({
      params: ["v"],
      body: { fn: "inner", args: [{ var: "arg.v" }] },
    }));
  test("binds field types per entity that has any", () =>
    expect(server.fieldTypes).toEqual({ Order: { "/total": "Money" } }));
});

describe("the client manifest", () => {
  test("holds only rules enforced on the client that are not actions", () =>
    expect(ids(client)).toEqual(["client.limit", "client.only"]));
  test("holds only the functions those rules reach, directly or not", () =>
    expect(Object.keys(client.functions as JsonObject).sort()).toEqual(["inner", "outer"]));
  test("holds only the params those rules and functions read", () =>
    expect(client.params).toEqual({ limit: 10, reached: 1 }));
  test("holds only the messages those rules use, in every locale", () =>
    expect(client.messages).toEqual({ en: { overLimit: "Too much." }, de: { overLimit: "Zu viel." } }));
  test("lists only the operators the client rules reach", () => expect(client.operators).toEqual(["x-alpha"]));
  test("carries the checksum of the full resolved ruleset, like the server manifest", () => {
    expect(client.checksum).toBe(compiled.ruleset.checksum);
    expect(server.checksum).toBe(compiled.ruleset.checksum);
  });
});

describe("the checksum", () => {
  test("is the SHA-256 of the canonical JSON of exactly the resolved members of section 6", () => {
    const resolved = compiled.ruleset.resolved;
    expect(Object.keys(resolved)).toEqual([
      "ruleCascade",
      "id",
      "version",
      "scope",
      "conflictPolicy",
      "defaultLocale",
      "entities",
      "types",
      "params",
      "functions",
      "operators",
      "rules",
      "messages",
    ]);
    expect(compiled.ruleset.checksum).toBe(`sha256:${sha256Hex(new TextEncoder().encode(canonicalJson(resolved)))}`);
  });
  test("fills in only conflictPolicy and defaultLocale", () => {
    expect(compiled.ruleset.resolved.conflictPolicy).toBe("fail");
    expect(compiled.ruleset.resolved.defaultLocale).toBe("en");
    expect((compiled.ruleset.resolved.rules as JsonObject[])[0]).not.toHaveProperty("priority");
  });
  test("does not change with the title, status or tests, which are not in the resolved ruleset", () => {
    const { tests: _tests, ...withoutTests } = document;
    const retitled: JsonObject = {
      ...withoutTests,
      metadata: { ...(document.metadata as JsonObject), title: "Another title", status: "draft" },
    };
    expect(compileRuleset(retitled).ruleset.checksum).toBe(compiled.ruleset.checksum);
  });
  test("changes when a rule changes", () => {
    const changed = structuredClone(document);
    ((changed.rules as JsonObject[])[0]!.finding as JsonObject).code = "ACME-LIM-002";
    expect(compileRuleset(changed).ruleset.checksum).not.toBe(compiled.ruleset.checksum);
  });
  test("keeps x- members as written and gives them no meaning", () => {
    const extended = structuredClone(document);
    (extended.rules as JsonObject[])[0]!["x-team"] = "payments";
    const recompiled = compileRuleset(extended);
    expect(
      ((recompiled.bundle.manifests as Record<string, JsonObject>).server!.rules as JsonObject[])[0]!["x-team"],
    ).toBe("payments");
    expect(recompiled.ruleset.checksum).not.toBe(compiled.ruleset.checksum);
  });
});
