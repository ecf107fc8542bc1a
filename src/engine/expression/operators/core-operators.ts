import type { OperatorDefinition } from "../prepared-node.ts";
import { arithmeticOperators } from "./arithmetic-operators.ts";
import { collectionOperators } from "./collection-operators.ts";
import { comparisonOperators } from "./comparison-operators.ts";
import { dateOperators } from "./date-operators.ts";
import { logicOperators } from "./logic-operators.ts";
import { stringOperators } from "./string-operators.ts";

/** Every operator of the core profile 1.0 (specification 4.3), by name. */
export const coreOperators: ReadonlyMap<string, OperatorDefinition> = new Map(
  Object.entries({
    ...logicOperators,
    ...comparisonOperators,
    ...arithmeticOperators,
    ...stringOperators,
    ...collectionOperators,
    ...dateOperators,
  }),
);
