// Runs the evaluation loop in the page and reports the rate to the benchmark.
import * as api from "/rule-cascade.js";
import { evaluationRate } from "/evaluation-loop.js";

const { bundle, requests, seconds } = await (await fetch("/input.json")).json();
let rate;
try {
  rate = await evaluationRate(api, bundle, requests, seconds);
} catch (error) {
  rate = String(error?.stack ?? error);
}
await fetch("/report/rate", { method: "POST", body: JSON.stringify(rate) });
