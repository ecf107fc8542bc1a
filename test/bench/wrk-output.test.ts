import { describe, expect, test } from "bun:test";
import { readWrkOutput } from "../../bench/http/wrk.ts";

/** The HTTP benchmark's figures come from wrk's text; these are the lines it reads them from. */
const output = (threadShare: string, p99: string): string => `Running 5s test @ http://127.0.0.1:40000/evaluations
  1 threads and 64 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     1.43ms  462.76us   8.29ms   ${threadShare}
    Req/Sec    45.32k     9.10k   55.94k    50.00%
  Latency Distribution
     50%    1.25ms
     75%    1.41ms
     90%    1.80ms
     99%    ${p99}
  225341 requests in 5.00s, 120.56MB read
  Non-2xx or 3xx responses: 3
Requests/sec:  44937.37
Transfer/sec:     24.11MB
`;

describe("reading wrk's output", () => {
  test("requests, rate, p99 and non-2xx answers", () => {
    expect(readWrkOutput(output("86.25%", "2.96ms"))).toEqual({
      requests: 225341,
      requestsPerSecond: 44937.37,
      p99Ms: 2.96,
      non2xx: 3,
    });
  });

  test("p99 is read from the distribution even when a thread-stats share ends in 99%", () => {
    expect(readWrkOutput(output("87.99%", "2.96ms")).p99Ms).toBe(2.96);
  });

  test.each([
    ["829.00us", 0.829],
    ["10.41ms", 10.41],
    ["1.02s", 1020],
  ])("p99 of %s is %p ms", (printed, milliseconds) => {
    expect(readWrkOutput(output("86.25%", printed)).p99Ms).toBeCloseTo(milliseconds, 6);
  });
});
