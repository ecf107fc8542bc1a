import type { JsonValue } from "../value/json-value.ts";
import { toLeavingValue } from "../value/leaving-value.ts";
import type { Value } from "../value/value-kind.ts";
import { customOperatorsFrom, type CustomOperator, type CustomOperators } from "./custom-operators.ts";
import { FunctionTable } from "./function-table.ts";
import { prepareExpression } from "./prepare-expression.ts";
import { Scope, type RootName } from "./scope.ts";

/** The roots an expression is evaluated with; absent roots are null. */
export type ExpressionEnvironment = Partial<Record<RootName, JsonValue>>;

export interface ExpressionOptions {
  /** A function table as a manifest carries it: name to `{params, body}`. */
  readonly functions?: unknown;
  readonly operators?: Readonly<Record<string, CustomOperator>> | CustomOperators;
  /** Whether the expression may be compiled to JavaScript functions; default true. */
  readonly codeGeneration?: boolean;
}

/**
 * Evaluates one expression by itself (the engine protocol's `expression` command) and returns the
 * value as it leaves the engine. Throws EvaluationError when the expression cannot be evaluated.
 */
export function evaluateExpression(
  expression: unknown,
  environment: ExpressionEnvironment = {},
  options: ExpressionOptions = {},
): JsonValue {
  const node = prepareExpression(expression, {
    functions: new FunctionTable(options.functions ?? null),
    operators: customOperatorsFrom(options.operators),
    codeGeneration: options.codeGeneration ?? true,
  });
  const root = (name: RootName): Value => environment[name] ?? null;
  const scope = new Scope(
    root("data"),
    root("original"),
    root("actor"),
    root("ctx"),
    root("params"),
    root("item"),
    root("value"),
    root("field"),
    root("arg"),
  );
  return toLeavingValue(node(scope, 0));
}
