import { conformanceOperators } from "../engine/conformance-operators.ts";
import {
  customOperatorsFrom,
  NO_CUSTOM_OPERATORS,
  type CustomOperators,
} from "../engine/expression/custom-operators.ts";
import { UsageError } from "./usage-error.ts";

/**
 * `--operators test`: the custom operators of the conformance corpora (x-test-reverse, x-test-sum,
 * x-luhn), for checking those corpora. Without it a command registers none, as the rule-server
 * executable does, so a golden test passes in `check` exactly when its rules work in the server.
 */
export function operatorsOption(command: string, value: string | undefined): CustomOperators {
  if (value === undefined) return NO_CUSTOM_OPERATORS;
  if (value === "test") return customOperatorsFrom(conformanceOperators);
  throw new UsageError(`${command}: --operators takes test (the operators of the conformance corpora), not ${value}`);
}
