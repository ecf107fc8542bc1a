import type { PlanCondition } from "./plan-condition.ts";

/**
 * A plan (DECISIONS.md "Plans"): `kind` `always` or `never` when the decision does not depend on
 * the data; otherwise `condition`, a tree that holds for the data whose evaluation gives what was
 * wanted (`exact`), or for those and more (`exact: false`, with the rules the tree could not
 * follow in `residualRules`, which the application evaluates per row).
 */
export interface PlanResult {
  ruleset: string;
  version: string;
  checksum: string;
  kind: "always" | "never" | "conditional";
  exact: boolean;
  condition?: PlanCondition;
  residualRules?: string[];
}
