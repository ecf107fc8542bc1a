// Runs the evaluation loop in the page, as loaded by default and with code generation, and reports both rates.
import * as api from "/rule-cascade.js";
import { evaluationRate } from "/evaluation-loop.js";

const { bundle, requests, seconds } = await (await fetch("/input.json")).json();
let rate;
try {
  const closures = await evaluationRate(api, bundle, requests, seconds);
  const generated = await evaluationRate(api, bundle, requests, seconds, { codeGeneration: true });
  rate = { closures, generated };
} catch (error) {
  rate = String(error?.stack ?? error);
}
await fetch("/report/rate", { method: "POST", body: JSON.stringify(rate) });
