import { expect, test } from "bun:test";
import { parseRefreshInterval } from "../../src/schedule/refresh-interval.ts";

/** RULES_REFRESH_INTERVAL forms and the one-second minimum. */
test.each([
  ["30s", 30000],
  ["5m", 300000],
  ["1h", 3600000],
  ["1500ms", 1500],
  ["10", 10000],
  ["1", 1000],
  ["2.5", 2500],
  ["1000ms", 1000],
])("%s is %d ms", (text, milliseconds) => expect(parseRefreshInterval(text)).toEqual({ ok: true, milliseconds }));

test.each(["999ms", "0", "0.5", "0s", "", "soon", "5 minutes", "-1", "1d", "1e3"])("%p is refused", (text) =>
  expect(parseRefreshInterval(text).ok).toBe(false),
);
