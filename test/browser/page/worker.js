// The same jobs in a module Worker, where the engine must run too.
import * as api from "/rule-cascade.js";
import { conformanceOperators } from "/conformance-operators.js";
import { reportJobs } from "/run-jobs.js";

await reportJobs(api, conformanceOperators, "worker");
