import type { LoadedRuleset } from "../../engine/bundle/loaded-ruleset.ts";
import { isJsonObject, listAt, objectAt, stringAt } from "../../engine/value/json-access.ts";
import type { JsonObject, JsonValue } from "../../engine/value/json-value.ts";
import { valuesEqual } from "../../engine/value/value-equality.ts";

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
}

export function runGoldenTests(ruleset: LoadedRuleset, tests: JsonValue | undefined): GoldenTestOutcome[] {
  return listAt(tests).map((entry) => {
    const test = objectAt(entry);
    const name = stringAt(test.name);
    const request: JsonObject = { ...objectAt(test.given), entity: test.entity ?? null, operation: test.operation ?? null };
    const channel = test.channel === "client" ? "client" : "server";
    let result: JsonObject;
    try {
      result = ruleset.evaluate(request, channel) as unknown as JsonObject;
    } catch (error) {
      return { name, failures: [`the test's request was refused: ${error instanceof Error ? error.message : String(error)}`] };
    }
    return { name, failures: compare(result, objectAt(test.expect)) };
  });
}

function compare(result: JsonObject, expect: JsonObject): string[] {
  const failures: string[] = [];
  if (!valuesEqual(result.decision ?? null, expect.decision ?? null)) failures.push(`decision is ${show(result.decision)}, expected ${show(expect.decision)}`);
  const findings = listAt(result.findings);
  const expectedFindings = listAt(expect.findings);
  const actualRules = findings.map((finding) => stringAt(objectAt(finding).rule)).sort();
  const expectedRules = expectedFindings.map((finding) => stringAt(objectAt(finding).rule)).sort();
  if (actualRules.join("\n") !== expectedRules.join("\n")) {
    failures.push(`findings come from [${actualRules.join(", ")}], expected [${expectedRules.join(", ")}]`);
  } else {
    // Several findings may share a rule (forEach, type rules): each expectation must match one.
    for (const expected of expectedFindings) if (!matchesOne(expected, findings)) failures.push(`no finding matches ${show(expected)}`);
  }
  for (const expected of listAt(expect.effects)) if (!matchesOne(expected, listAt(result.effects))) failures.push(`missing effect ${show(expected)}`);
  if (Object.hasOwn(expect, "commands")) {
    const names = listAt(result.commands).map((command) => objectAt(command).name ?? null);
    if (!valuesEqual(names, expect.commands!)) failures.push(`commands are ${show(names)}, expected ${show(expect.commands)}`);
  }
  return failures;
}

/** Whether an actual object has every member of the expected one, with an equal value. */
function matchesOne(expected: JsonValue, actuals: readonly JsonValue[]): boolean {
  if (!isJsonObject(expected)) return false;
  return actuals.some((actual) => isJsonObject(actual) && Object.entries(expected).every(([key, value]) => Object.hasOwn(actual, key) && valuesEqual(actual[key]!, value)));
}

function show(value: JsonValue | undefined): string {
  const text = JSON.stringify(value ?? null);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
