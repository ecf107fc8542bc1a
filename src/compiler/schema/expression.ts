/** `$defs/Expr`: the expression AST (a literal, a `var` reference, an operator call or a function call). */
import { Type } from "@sinclair/typebox";
import { coreOperators } from "../../engine/expression/operators/core-operators.ts";
import { didYouMean, suggesting } from "../../engine/names/closest-name.ts";
import { Enum, Pattern } from "./keywords.ts";
import { CUSTOM_OPERATOR_PATTERN, Name, VAR_PATTERN, VAR_ROOTS } from "./names.ts";
import { operatorMeant } from "./operator-aliases.ts";

/**
 * The core operators of profile 1.0: the names the engine implements, so that the schema and the
 * evaluator can never disagree about which operators exist.
 */
export const CORE_OPERATORS: readonly string[] = [...coreOperators.keys()];

const Operator = Type.Union([Enum(CORE_OPERATORS), Pattern(CUSTOM_OPERATOR_PATTERN)], {
  errorMessage: "must be a core operator, or x- followed by lower-case letters, digits and - for a custom one",
  explain: (value: unknown) =>
    typeof value === "string"
      ? `\`${value}\` is not an operator (a core operator, or x- and a name for a custom one)${suggesting(operatorMeant(value, CORE_OPERATORS))}`
      : "`op` must be an operator name",
});

/** Why a `var` path is refused: a root that is not one, or a malformed path after it. */
function explainVariable(value: unknown): string {
  if (typeof value !== "string") return "`var` must be a string";
  const root = value.split(".")[0]!;
  if (!(VAR_ROOTS as readonly string[]).includes(root))
    return `\`${root}\` is not a variable root (${VAR_ROOTS.join(", ")})${didYouMean(root, VAR_ROOTS)}`;
  return `\`${value}\` is not a variable path: after the root come member names of letters, digits, _ and -, each after one dot`;
}

export const Expr = Type.Recursive(
  (Self) =>
    Type.Union(
      [
        Type.String(),
        Type.Number(),
        Type.Boolean(),
        Type.Null(),
        Type.Object(
          { var: Pattern(VAR_PATTERN, { explain: explainVariable }) },
          { additionalProperties: false, branchKey: "var" },
        ),
        Type.Object({ op: Operator, args: Type.Array(Self) }, { additionalProperties: false, branchKey: "op" }),
        Type.Object({ fn: Name, args: Type.Array(Self) }, { additionalProperties: false, branchKey: "fn" }),
      ],
      { errorMessage: "must be an expression: a literal, { var }, { op, args } or { fn, args }" },
    ),
  { $id: "RuleCascadeExpr" },
);
