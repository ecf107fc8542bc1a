// The same jobs in a module Worker, where the engine must run too.
import * as api from "/rule-cascade.js";
import { conformanceOperators } from "/conformance-operators.js";
import { runJobs } from "/run-jobs.js";

const report = (name, value) => fetch(`/report/${name}`, { method: "POST", body: JSON.stringify(value) });

try {
  const jobs = await (await fetch("/jobs.json")).json();
  await report("worker", await runJobs(api, conformanceOperators, jobs));
} catch (error) {
  await report("worker", { failed: String(error?.stack ?? error) });
}
