/** `make bench`: every benchmark in turn. Each prints its own figures. */
import { benchBrowser } from "./browser.ts";
import { benchCompile } from "./compile.ts";
import { benchEvaluate } from "./evaluate.ts";
import { benchExampleRequest } from "./example-request.ts";
import { benchExpressions } from "./expressions.ts";
import { benchExplain } from "./explain.ts";
import { benchHttp } from "./http/throughput.ts";
import { benchStartup } from "./startup.ts";

benchExpressions();
benchEvaluate();
await benchExampleRequest();
benchExplain();
benchCompile();
await benchStartup();
await benchHttp();
await benchBrowser();
