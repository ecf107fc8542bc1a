import { conformanceOperators } from "../../../src/engine/conformance-operators.ts";

/**
 * The custom operators worker tests register through operatorsModule: the conformance operators,
 * and `x-die`, which ends the worker thread that evaluates it (to prove dead workers are replaced).
 */
export const operators = {
  ...conformanceOperators,
  // In a worker thread, process.exit ends that thread at once, mid-evaluation.
  "x-die": () => process.exit(1),
};
