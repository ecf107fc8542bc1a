import { conditionHolds } from "../../src/engine/plan/condition-holds.ts";
import type { PlanCondition } from "../../src/engine/plan/plan-condition.ts";
import type { JsonValue } from "../../src/engine/value/json-value.ts";
import { PlanNotTranslatableError } from "../../src/queries/plan-not-translatable.ts";
import type { SqlText } from "../../src/queries/sql-fragment.ts";

/**
 * The differential check of a translation: for each condition, the rows a database keeps are
 * exactly the rows conditionHolds accepts, and the clause is TRUE or FALSE on every row, never
 * NULL. A refusal is right exactly where the test says the translation cannot be exact.
 */
export interface DifferentialRun<Translation> {
  /** Names the run and its seed in failures. */
  readonly label: string;
  /** The rows' data; row i has id i + 1. */
  readonly rows: readonly JsonValue[];
  readonly conditions: readonly PlanCondition[];
  translate(condition: PlanCondition): Translation | PlanNotTranslatableError;
  refusalExpected(condition: PlanCondition): boolean;
  /** Each row's id with the translation's value on it (SQL: `SELECT id, (where) ...`), true, false or null. */
  evaluate(translation: Translation): Promise<{ readonly id: number; readonly holds: boolean | null }[]>;
  /** The translation as failures show it. */
  show(translation: Translation): string;
}

export interface DifferentialOutcome {
  /** Conditions run on the database (not refused). */
  readonly checked: number;
  readonly failures: readonly string[];
}

const FAILURES_SHOWN = 3;

export async function differentialCheck<Translation>(run: DifferentialRun<Translation>): Promise<DifferentialOutcome> {
  const failures: string[] = [];
  let checked = 0;
  for (const [index, condition] of run.conditions.entries()) {
    if (failures.length >= FAILURES_SHOWN) break;
    const context = `${run.label}, condition ${index}: ${JSON.stringify(condition)}`;
    const text = run.translate(condition);
    const refused = text instanceof PlanNotTranslatableError;
    if (refused !== run.refusalExpected(condition)) {
      failures.push(
        `${context}\n${refused ? `refused: ${text.message}` : "translated, though a refusal was expected"}`,
      );
      continue;
    }
    if (refused) continue;
    checked++;
    let answers: Awaited<ReturnType<DifferentialRun<Translation>["evaluate"]>>;
    try {
      answers = await run.evaluate(text);
    } catch (error) {
      failures.push(`${context}\n${run.show(text)}\nfailed: ${String(error)}`);
      continue;
    }
    const wrong = answers
      .map(({ id, holds }) => ({ id, holds, expected: conditionHolds(condition, run.rows[id - 1]!) }))
      .filter(({ holds, expected }) => holds !== expected);
    if (answers.length !== run.rows.length)
      failures.push(`${context}\n${answers.length} rows answered of ${run.rows.length}`);
    else if (wrong.length > 0) {
      const shown = wrong
        .slice(0, 3)
        .map(
          ({ id, holds, expected }) =>
            `row ${id} ${JSON.stringify(run.rows[id - 1])}: database ${holds}, conditionHolds ${expected}`,
        );
      failures.push(`${context}\n${run.show(text)}\n${shown.join("\n")}`);
    }
  }
  return { checked, failures };
}

export function showSql(text: SqlText): string {
  return `where ${text.where}\nparams ${JSON.stringify(text.params)}`;
}
