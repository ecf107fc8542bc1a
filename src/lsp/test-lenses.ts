import type { CodeLens } from "vscode-languageserver/node";
import type { SourceLocator } from "../compiler/source/source-position.ts";
import { listAt, objectAt, stringAt } from "../engine/value/json-access.ts";
import type { JsonValue } from "../engine/value/json-value.ts";
import { rangeAt } from "./text-range.ts";

/** The commands the lenses run (workspace/executeCommand). */
export const RUN_TESTS_COMMAND = "ruleServer.runTests";
export const EVALUATE_TEST_COMMAND = "ruleServer.evaluateTest";

/** "Run N tests" over a ruleset's `tests:`, and "Evaluate" over each test's name. */
export function testLenses(
  uri: string,
  document: JsonValue | undefined,
  locate: SourceLocator | undefined,
  text: string | undefined,
): CodeLens[] {
  const tests = listAt(objectAt(document).tests);
  const at = locate?.(["tests"], "key");
  if (tests.length === 0 || at === undefined) return [];
  const lenses: CodeLens[] = [
    {
      range: rangeAt(text, at.line, at.column),
      command: {
        title: `Run ${tests.length} test${tests.length === 1 ? "" : "s"}`,
        command: RUN_TESTS_COMMAND,
        arguments: [uri],
      },
    },
  ];
  tests.forEach((test, index) => {
    const name = locate?.(["tests", String(index), "name"], "value");
    if (name === undefined) return;
    lenses.push({
      range: rangeAt(text, name.line, name.column),
      command: {
        title: "Evaluate",
        command: EVALUATE_TEST_COMMAND,
        arguments: [uri, index],
        tooltip: `Evaluate "${stringAt(objectAt(test).name)}" and show its decision`,
      },
    });
  });
  return lenses;
}
