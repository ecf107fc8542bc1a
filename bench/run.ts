/** `make bench`: every benchmark in turn. Each prints its own figures. */
import { benchEvaluate } from "./evaluate.ts";
import { benchExpressions } from "./expressions.ts";

benchExpressions();
benchEvaluate();
