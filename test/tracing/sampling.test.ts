import { describe, expect, test } from "bun:test";
import { incomingTrace } from "../../src/tracing/incoming-trace.ts";
import { sampled } from "../../src/tracing/sampler.ts";

const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT = "00f067aa0ba902b7";

/** A random trace id, as a new trace gets. */
function randomTraceId(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("hex");
}

describe("an incoming traceparent", () => {
  test("is read with its sampled flag", () => {
    expect(incomingTrace(`00-${TRACE}-${PARENT}-01`)).toEqual({ traceId: TRACE, parentSpanId: PARENT, sampled: true });
    expect(incomingTrace(`00-${TRACE}-${PARENT}-00`)?.sampled).toBe(false);
    // A later version may add members after the flags.
    expect(incomingTrace(`01-${TRACE}-${PARENT}-01-extra`)?.traceId).toBe(TRACE);
  });
  test("that is not valid starts a trace of its own", () => {
    for (const header of [
      null,
      "",
      `00-${TRACE.toUpperCase()}-${PARENT}-01`,
      `00-${"0".repeat(32)}-${PARENT}-01`,
      `00-${TRACE}-${"0".repeat(16)}-01`,
      `ff-${TRACE}-${PARENT}-01`,
      `00-${TRACE}-${PARENT}-01-extra`,
    ])
      expect(incomingTrace(header)).toBeUndefined();
  });
});

describe("sampling", () => {
  const always = { kind: "always_on", parentBased: true, ratio: 1 } as const;
  test("parent-based samplers follow the caller's flag, and decide alone without one", () => {
    const caller = incomingTrace(`00-${TRACE}-${PARENT}-00`);
    expect(sampled(always, TRACE, caller)).toBe(false);
    expect(sampled(always, TRACE, undefined)).toBe(true);
    expect(sampled({ ...always, parentBased: false }, TRACE, caller)).toBe(true);
    expect(sampled({ kind: "always_off", parentBased: false, ratio: 1 }, TRACE, undefined)).toBe(false);
  });
  test("traceidratio keeps about its ratio of traces, and always the same ones", () => {
    const ratio = { kind: "traceidratio", parentBased: false, ratio: 0.25 } as const;
    const ids = Array.from({ length: 4000 }, () => randomTraceId());
    const kept = ids.filter((id) => sampled(ratio, id, undefined)).length;
    expect(kept / ids.length).toBeGreaterThan(0.2);
    expect(kept / ids.length).toBeLessThan(0.3);
    for (const id of ids.slice(0, 50)) expect(sampled(ratio, id, undefined)).toBe(sampled(ratio, id, undefined));
    expect(ids.some((id) => sampled({ ...ratio, ratio: 0 }, id, undefined))).toBe(false);
  });
});
