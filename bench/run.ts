/** `make bench`: every benchmark in turn. Each prints its own figures. */
import { benchCompile } from "./compile.ts";
import { benchEvaluate } from "./evaluate.ts";
import { benchExpressions } from "./expressions.ts";

benchExpressions();
benchEvaluate();
benchCompile();
