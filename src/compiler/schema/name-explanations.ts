import { didYouMean, suggesting } from "../../engine/names/closest-name.ts";
import { CORE_OPERATORS, RULE_KINDS, VAR_ROOTS } from "./names.ts";
import { operatorMeant } from "./operator-aliases.ts";

/**
 * How a refused name is explained in plain words, with a close known name: a schema of names
 * says which of these applies (`explain` in keywords.ts) by name rather than holding a function,
 * so that the schemas are data the release executable can hold written out (checked-schemas.ts).
 */
export type NameExplanation = "operator" | "variable" | "rule-kind";

export function explainRefusedName(explanation: NameExplanation, value: unknown): string {
  switch (explanation) {
    case "operator":
      return typeof value === "string"
        ? `\`${value}\` is not an operator (a core operator, or x- and a name for a custom one)${suggesting(operatorMeant(value, CORE_OPERATORS))}`
        : "`op` must be an operator name";
    case "variable":
      return explainVariable(value);
    case "rule-kind":
      return typeof value === "string"
        ? `\`${value}\` is not a rule kind (${RULE_KINDS.join(", ")}, or x-... for a custom one)${didYouMean(value, RULE_KINDS)}`
        : `\`kind\` must be one of ${RULE_KINDS.join(", ")}`;
  }
}

/** Why a `var` path is refused: a root that is not one, or a malformed path after it. */
function explainVariable(value: unknown): string {
  if (typeof value !== "string") return "`var` must be a string";
  const root = value.split(".")[0]!;
  if (!(VAR_ROOTS as readonly string[]).includes(root))
    return `\`${root}\` is not a variable root (${VAR_ROOTS.join(", ")})${didYouMean(root, VAR_ROOTS)}`;
  return `\`${value}\` is not a variable path: after the root come member names of letters, digits, _ and -, each after one dot`;
}
