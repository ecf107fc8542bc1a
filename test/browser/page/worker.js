// The same jobs in a module Worker, where the engine must run too, here with code generation on.
import * as api from "/rule-cascade.js";
import { conformanceOperators } from "/conformance-operators.js";
import { reportJobs } from "/run-jobs.js";

await reportJobs(api, { operators: conformanceOperators, codeGeneration: true }, "worker");
