// The main thread evaluates every job, then a module Worker does the same; each reports to the test.
import * as api from "/rule-cascade.js";
import { conformanceOperators } from "/conformance-operators.js";
import { reportJobs } from "/run-jobs.js";

await reportJobs(api, conformanceOperators, "main");
const worker = new Worker("/worker.js", { type: "module" });
worker.onerror = (event) => void fetch("/report/worker", { method: "POST", body: JSON.stringify({ failed: `worker error: ${event.message}` }) });
