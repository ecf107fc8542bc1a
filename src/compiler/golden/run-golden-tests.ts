import type { LoadedRuleset } from "../../engine/bundle/loaded-ruleset.ts";
import type { CoverageProbe } from "../../engine/coverage/coverage-probe.ts";
import type { EvaluationResult } from "../../engine/evaluation/evaluation-result.ts";
import { isJsonObject, listAt, objectAt, stringAt } from "../../engine/value/json-access.ts";
import type { JsonObject, JsonValue } from "../../engine/value/json-value.ts";
import { valuesEqual } from "../../engine/value/value-equality.ts";
import type { RuleExplanation } from "../../engine/explanation/explanation.ts";
import type { SourceLocator } from "../source/source-position.ts";
import { goldenDiff } from "./golden-diff.ts";

/**
 * The golden tests of a ruleset document (its `tests` member, the schema's `Test` definition). A
 * test passes when the decision matches, the findings come from exactly the expected rules, every
 * expected finding and effect is matched member by member by an actual one, and the command names
 * match in order.
 */
export interface GoldenTestOutcome {
  readonly name: string;
  /** Why the test failed; empty when it passed. */
  readonly failures: readonly string[];
  /** Where the test's `name` is written, when the document was read from a file. */
  readonly line?: number;
  readonly column?: number;
  /** For a failed test: expected against actual, as diff lines (`- ` expected, `+ ` actual). */
  readonly diff?: readonly string[];
  /** For a failed test: the full explanation of each rule whose outcome differs from the expected one. */
  readonly explained?: readonly RuleExplanation[];
}

/** How the tests of one document are run. */
export interface GoldenTestOptions {
  /** Places in the document, for the line of each test's name. */
  readonly locate?: SourceLocator;
  /**
   * Runs only the tests it matches: by the ruleset's id, the test's name, or the id of a rule the
   * test selects (found with a `rules` explanation, only for a test its names do not match).
   */
  readonly filter?: (name: string) => boolean;
  /** Evaluates the tests under a coverage probe, telling `probed` what each rule did in each test. */
  readonly coverage?: { readonly probe: CoverageProbe; probed(name: string, rules: readonly RuleExplanation[]): void };
}

/** The request a golden test evaluates, and on which channel: `given` with the test's entity and operation. */
export function goldenTestRequest(test: JsonObject): { request: JsonObject; channel: "server" | "client" } {
  return {
    request: { ...objectAt(test.given), entity: test.entity ?? null, operation: test.operation ?? null },
    channel: test.channel === "client" ? "client" : "server",
  };
}

export function runGoldenTests(
  ruleset: LoadedRuleset,
  tests: JsonValue | undefined,
  options: GoldenTestOptions = {},
): GoldenTestOutcome[] {
  const outcomes: GoldenTestOutcome[] = [];
  listAt(tests).forEach((entry, index) => {
    const test = objectAt(entry);
    const name = stringAt(test.name);
    const { request, channel } = goldenTestRequest(test);
    if (options.filter !== undefined && !matchesFilter(options.filter, ruleset, name, request, channel)) return;
    const place = placeOfTest(options.locate, index);
    let result: JsonObject;
    try {
      result = evaluateTest(ruleset, request, channel, name, options.coverage) as unknown as JsonObject;
    } catch (error) {
      outcomes.push(
        place({
          name,
          failures: [`the test's request was refused: ${error instanceof Error ? error.message : String(error)}`],
        }),
      );
      return;
    }
    const expect = objectAt(test.expect);
    const failures = compare(result, expect);
    if (failures.length === 0) {
      outcomes.push(place({ name, failures }));
      return;
    }
    // Only a failed test is evaluated again, with its explanation.
    const explanation = ruleset.evaluate(request, channel, { explain: "full" }).explanation!;
    const differing = rulesThatDiffer(result, expect, ruleset.manifest(channel), explanation.rules);
    outcomes.push(
      place({
        name,
        failures,
        diff: goldenDiff(result, expect),
        explained: explanation.rules.filter((rule) => differing.has(rule.rule)),
      }),
    );
  });
  return outcomes;
}

type Unplaced = Omit<GoldenTestOutcome, "line" | "column">;

/**
 * Gives an outcome the `line` and `column` of its test's name, found when first read: placing a
 * test reads the document's text again (read-yaml-source.ts), which cost `check` a third of its
 * time at a thousand rulesets, and most reports ask only a failed test where it is.
 */
function placeOfTest(locate: SourceLocator | undefined, index: number): (outcome: Unplaced) => GoldenTestOutcome {
  if (locate === undefined) return (outcome) => outcome;
  let position: ReturnType<SourceLocator> | null = null;
  const find = () => {
    if (position === null) position = locate(["tests", String(index), "name"], "value");
    return position;
  };
  return (outcome) =>
    Object.defineProperties(outcome, {
      line: { enumerable: true, get: () => find()?.line },
      column: { enumerable: true, get: () => find()?.column },
    });
}

function matchesFilter(
  filter: (name: string) => boolean,
  ruleset: LoadedRuleset,
  name: string,
  request: JsonObject,
  channel: "client" | "server",
): boolean {
  if (filter(ruleset.id) || filter(name)) return true;
  try {
    const rules = ruleset.evaluate(request, channel, { explain: "rules" }).explanation!.rules;
    return rules.some((rule) => rule.status !== "not-selected" && filter(rule.rule));
  } catch {
    return false;
  }
}

function evaluateTest(
  ruleset: LoadedRuleset,
  request: JsonObject,
  channel: "client" | "server",
  name: string,
  coverage: GoldenTestOptions["coverage"],
): EvaluationResult {
  if (coverage === undefined) return ruleset.evaluate(request, channel);
  const probed = coverage.probe.evaluate(request, channel);
  coverage.probed(name, probed.rules);
  return probed.result;
}

/**
 * The rules whose outcome is not the expected one: a finding expected from a rule and not given
 * (or not as expected), or given and not expected; for an expected effect that is missing, the
 * rules that write its field; for commands that differ, the action rules that were selected.
 */
function rulesThatDiffer(
  result: JsonObject,
  expect: JsonObject,
  manifest: JsonObject,
  rules: readonly RuleExplanation[],
): Set<string> {
  const differing = new Set<string>();
  const count = (findings: JsonValue | undefined): Map<string, number> => {
    const counts = new Map<string, number>();
    for (const finding of listAt(findings))
      counts.set(stringAt(objectAt(finding).rule), (counts.get(stringAt(objectAt(finding).rule)) ?? 0) + 1);
    return counts;
  };
  // A decision that differs: deny came from the blocking findings; a missing deny from some validation that stayed quiet.
  if (!valuesEqual(result.decision ?? null, expect.decision ?? null)) {
    for (const finding of listAt(result.findings))
      if (objectAt(finding).blocking === true) differing.add(stringAt(objectAt(finding).rule));
    if (result.decision === "allow")
      for (const rule of rules)
        if (rule.kind === "validation" && (rule.status === "passed" || rule.status === "when-false"))
          differing.add(rule.rule);
  }
  const actual = count(result.findings);
  const expected = count(expect.findings);
  for (const rule of new Set([...actual.keys(), ...expected.keys()]))
    if (actual.get(rule) !== expected.get(rule)) differing.add(rule);
  for (const finding of listAt(expect.findings))
    if (!matchesOne(finding, listAt(result.findings))) differing.add(stringAt(objectAt(finding).rule));
  for (const effect of listAt(expect.effects)) {
    if (matchesOne(effect, listAt(result.effects))) continue;
    const wanted = objectAt(effect);
    if (typeof wanted.rule === "string") differing.add(wanted.rule);
    for (const rule of listAt(manifest.rules).map(objectAt)) {
      const fields = [...listAt(rule.assign), ...listAt(rule.effects)].map((entry) => objectAt(entry).field);
      if (fields.some((field) => valuesEqual(field ?? null, wanted.field ?? null))) differing.add(stringAt(rule.id));
    }
  }
  if (Object.hasOwn(expect, "commands")) {
    const names = listAt(result.commands).map((command) => objectAt(command).name ?? null);
    if (!valuesEqual(names, expect.commands!)) {
      for (const rule of rules)
        if (rule.kind === "action" && !(rule.status === "not-selected" && rule.because !== "decision"))
          differing.add(rule.rule);
    }
  }
  return differing;
}
function compare(result: JsonObject, expect: JsonObject): string[] {
  const failures: string[] = [];
  if (!valuesEqual(result.decision ?? null, expect.decision ?? null))
    failures.push(`decision is ${show(result.decision)}, expected ${show(expect.decision)}`);
  const findings = listAt(result.findings);
  const expectedFindings = listAt(expect.findings);
  const actualRules = findings.map((finding) => stringAt(objectAt(finding).rule)).sort();
  const expectedRules = expectedFindings.map((finding) => stringAt(objectAt(finding).rule)).sort();
  if (actualRules.join("\n") !== expectedRules.join("\n")) {
    failures.push(`findings come from [${actualRules.join(", ")}], expected [${expectedRules.join(", ")}]`);
  } else {
    // Several findings may share a rule (forEach, type rules): each expectation must match one.
    for (const expected of expectedFindings)
      if (!matchesOne(expected, findings)) failures.push(`no finding matches ${show(expected)}`);
  }
  for (const expected of listAt(expect.effects))
    if (!matchesOne(expected, listAt(result.effects))) failures.push(`missing effect ${show(expected)}`);
  if (Object.hasOwn(expect, "commands")) {
    const names = listAt(result.commands).map((command) => objectAt(command).name ?? null);
    if (!valuesEqual(names, expect.commands!))
      failures.push(`commands are ${show(names)}, expected ${show(expect.commands)}`);
  }
  return failures;
}

/** Whether an actual object has every member of the expected one, with an equal value. */
function matchesOne(expected: JsonValue, actuals: readonly JsonValue[]): boolean {
  if (!isJsonObject(expected)) return false;
  return actuals.some(
    (actual) =>
      isJsonObject(actual) &&
      Object.entries(expected).every(([key, value]) => Object.hasOwn(actual, key) && valuesEqual(actual[key]!, value)),
  );
}

function show(value: JsonValue | undefined): string {
  const text = JSON.stringify(value ?? null);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
