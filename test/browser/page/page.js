// The main thread evaluates every job, then a module Worker does the same; each reports to the test.
// The main thread keeps the default (no generated code), the Worker lets the engine generate it.
import * as api from "/rule-cascade.js";
import { conformanceOperators } from "/conformance-operators.js";
import { reportJobs } from "/run-jobs.js";

await reportJobs(api, { operators: conformanceOperators }, "main");
const worker = new Worker("/worker.js", { type: "module" });
worker.onerror = (event) =>
  void fetch("/report/worker", { method: "POST", body: JSON.stringify({ failed: `worker error: ${event.message}` }) });
