/** `$defs/Expr`: the expression AST (a literal, a `var` reference, an operator call or a function call). */
import { Type } from "@sinclair/typebox";
import { Enum, Pattern } from "./keywords.ts";
import { CORE_OPERATORS, CUSTOM_OPERATOR_PATTERN, Name, VAR_PATTERN } from "./names.ts";

const Operator = Type.Union([Enum(CORE_OPERATORS), Pattern(CUSTOM_OPERATOR_PATTERN)], {
  errorMessage: "must be a core operator, or x- followed by lower-case letters, digits and - for a custom one",
  explain: "operator",
});

export const Expr = Type.Recursive(
  (Self) =>
    Type.Union(
      [
        Type.String(),
        Type.Number(),
        Type.Boolean(),
        Type.Null(),
        Type.Object(
          { var: Pattern(VAR_PATTERN, { explain: "variable" }) },
          { additionalProperties: false, branchKey: "var" },
        ),
        Type.Object({ op: Operator, args: Type.Array(Self) }, { additionalProperties: false, branchKey: "op" }),
        Type.Object({ fn: Name, args: Type.Array(Self) }, { additionalProperties: false, branchKey: "fn" }),
      ],
      { errorMessage: "must be an expression: a literal, { var }, { op, args } or { fn, args }" },
    ),
  { $id: "RuleCascadeExpr" },
);
