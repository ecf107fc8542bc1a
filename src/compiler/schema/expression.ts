/** `$defs/Expr`: the expression AST (a literal, a `var` reference, an operator call or a function call). */
import { Type } from "@sinclair/typebox";
import { coreOperators } from "../../engine/expression/operators/core-operators.ts";
import { Enum, Pattern } from "./keywords.ts";
import { CUSTOM_OPERATOR_PATTERN, Name, VAR_PATTERN } from "./names.ts";

/**
 * The core operators of profile 1.0: the names the engine implements, so that the schema and the
 * evaluator can never disagree about which operators exist.
 */
export const CORE_OPERATORS: readonly string[] = [...coreOperators.keys()];

const Operator = Type.Union([Enum(CORE_OPERATORS), Pattern(CUSTOM_OPERATOR_PATTERN)], {
  errorMessage: `must be a core operator or match ${CUSTOM_OPERATOR_PATTERN}`,
});

export const Expr = Type.Recursive(
  (Self) =>
    Type.Union(
      [
        Type.String(),
        Type.Number(),
        Type.Boolean(),
        Type.Null(),
        Type.Object({ var: Pattern(VAR_PATTERN) }, { additionalProperties: false, branchKey: "var" }),
        Type.Object({ op: Operator, args: Type.Array(Self) }, { additionalProperties: false, branchKey: "op" }),
        Type.Object({ fn: Name, args: Type.Array(Self) }, { additionalProperties: false, branchKey: "fn" }),
      ],
      { errorMessage: "must be an expression: a literal, { var }, { op, args } or { fn, args }" },
    ),
  { $id: "RuleCascadeExpr" },
);
