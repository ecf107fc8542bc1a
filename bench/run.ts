/** `make bench`: every benchmark in turn. Each prints its own figures. */
import { benchBrowser } from "./browser.ts";
import { benchCompile } from "./compile.ts";
import { benchEvaluate } from "./evaluate.ts";
import { benchExpressions } from "./expressions.ts";
import { benchHttp } from "./http.ts";

benchExpressions();
benchEvaluate();
benchCompile();
await benchHttp();
await benchBrowser();
