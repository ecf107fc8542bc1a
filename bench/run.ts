/** `make bench`: every benchmark in turn. Each prints its own figures. */
import { benchBrowser } from "./browser.ts";
import { benchCompile } from "./compile.ts";
import { benchEvaluate } from "./evaluate.ts";
import { benchExampleRequest } from "./example-request.ts";
import { benchExpressions } from "./expressions.ts";
import { benchExplain } from "./explain.ts";
import { benchHttp } from "./http/throughput.ts";
import { benchProcessCount } from "./http/process-count.ts";
import { benchLsp } from "./lsp.ts";
import { benchDecisionRecordsHttp } from "./http/decision-records.ts";
import { benchReplay } from "./replay.ts";
import { benchStartup } from "./startup.ts";
import { benchTestCoverage } from "./test-coverage.ts";

benchExpressions();
benchEvaluate();
await benchExampleRequest();
benchExplain();
benchCompile();
benchTestCoverage();
benchReplay();
await benchStartup();
await benchHttp();
await benchProcessCount();
await benchDecisionRecordsHttp();
await benchBrowser();
await benchLsp();
