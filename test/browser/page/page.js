// The main thread evaluates every job, then a module Worker does the same; each reports to the test.
import * as api from "/rule-cascade.js";
import { conformanceOperators } from "/conformance-operators.js";
import { runJobs } from "/run-jobs.js";

const report = (name, value) => fetch(`/report/${name}`, { method: "POST", body: JSON.stringify(value) });

try {
  const jobs = await (await fetch("/jobs.json")).json();
  await report("main", await runJobs(api, conformanceOperators, jobs));
} catch (error) {
  await report("main", { failed: String(error?.stack ?? error) });
}
const worker = new Worker("/worker.js", { type: "module" });
worker.onerror = (event) => void report("worker", { failed: `worker error: ${event.message}` });
