import { expect, test } from "bun:test";
import type { EvaluationResult, Finding } from "../../src/browser/rule-cascade.ts";
import { compareResults } from "../../src/explorer/result-differences.ts";

const finding = (rule: string, fields: string[] = ["/amount"]): Finding => ({
  rule,
  code: rule.toUpperCase(),
  severity: "error",
  message: "m",
  fields,
  blocking: true,
  status: "open",
  resolution: "none",
  source: "s",
  args: {},
});
const result = (decision: "allow" | "deny", findings: Finding[]): EvaluationResult => ({
  ruleset: "r",
  version: "1",
  checksum: "c",
  decision,
  findings,
  effects: [],
  commands: [],
  blocking: findings.length > 0,
  resolution: "none",
});

test("findings of rules the client manifest lacks are server-only; the others are matched by rule, code and fields", () => {
  const shared = finding("limit");
  const sanctioned = finding("sanctioned", ["/country"]);
  const movedOnServer = finding("reference", ["/b"]);
  const client = result("deny", [finding("limit"), finding("reference", ["/a"])]);
  const server = result("deny", [sanctioned, shared, movedOnServer]);
  const differences = compareResults(client, server, new Set(["limit", "reference"]));
  expect([...differences.serverOnlyRules]).toEqual(["sanctioned"]);
  expect([...differences.serverOnlyFindings]).toEqual([sanctioned, movedOnServer]);
  expect([...differences.clientOnlyFindings].map((f) => f.fields)).toEqual([["/a"]]);
  expect(differences.sameDecision).toBe(true);
  expect(compareResults(result("allow", []), server, new Set()).sameDecision).toBe(false);
});
