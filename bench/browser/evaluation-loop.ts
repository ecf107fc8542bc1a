/**
 * The loop both sides of the browser benchmark run: the four shop requests in turn, through the
 * browser module's Ruleset.evaluate, for a fixed time after a warm-up. Chromium runs this file
 * transpiled, Bun runs it as it is, so the two rates measure the same code.
 */
import type * as BrowserModule from "../../src/browser/rule-cascade.ts";

export async function evaluationRate(
  api: typeof BrowserModule,
  bundle: BrowserModule.JsonValue,
  requests: readonly BrowserModule.JsonValue[],
  seconds: number,
  options: BrowserModule.LoadOptions = {},
): Promise<number> {
  const ruleset = await api.loadRuleset(bundle, options);
  let next = 0;
  const warmUntil = performance.now() + 500;
  while (performance.now() < warmUntil) ruleset.evaluate(requests[next++ % requests.length]!);
  let evaluations = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  let now = start;
  while (now < end) {
    // Batches of 64 keep the clock out of the measurement.
    for (let i = 0; i < 64; i++) ruleset.evaluate(requests[next++ % requests.length]!);
    evaluations += 64;
    now = performance.now();
  }
  return (evaluations / (now - start)) * 1000;
}
