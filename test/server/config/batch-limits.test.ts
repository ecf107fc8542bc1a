import { expect, test } from "bun:test";
import { createServer } from "../../../src/index.ts";
import { readEnvironment } from "../../../src/server/config/read-environment.ts";
import { ConfigurationError } from "../../../src/server/config/server-options.ts";

/** RULE_SERVER_BATCH_MAX_ITEMS and RULE_SERVER_BATCH_MAX_BYTES, validated like the other settings. */
const base = { RULE_SERVER_TOKEN: "test-token-0123456789" };

test("default to 1000 items and 16 MiB; other values are read as given", () => {
  expect(readEnvironment(base)).toMatchObject({ batchMaxItems: 1000, batchMaxBytes: 16 * 1024 * 1024 });
  expect(
    readEnvironment({ ...base, RULE_SERVER_BATCH_MAX_ITEMS: "50", RULE_SERVER_BATCH_MAX_BYTES: "65536" }),
  ).toMatchObject({ batchMaxItems: 50, batchMaxBytes: 65536 });
  expect(readEnvironment({ ...base, RULE_SERVER_BATCH_MAX_BYTES: String(128 * 1024 * 1024) }).batchMaxBytes).toBe(
    128 * 1024 * 1024,
  );
});

test("anything but a positive integer, or bytes above the HTTP layer's 128 MiB, is an invalid setting naming the variable", () => {
  for (const [name, value] of [
    ["RULE_SERVER_BATCH_MAX_ITEMS", "0"],
    ["RULE_SERVER_BATCH_MAX_ITEMS", "ten"],
    ["RULE_SERVER_BATCH_MAX_ITEMS", "-5"],
    ["RULE_SERVER_BATCH_MAX_BYTES", "16MiB"],
    ["RULE_SERVER_BATCH_MAX_BYTES", "1.5"],
    ["RULE_SERVER_BATCH_MAX_BYTES", String(128 * 1024 * 1024 + 1)],
  ]) {
    let caught: unknown;
    try {
      readEnvironment({ ...base, [name!]: value });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigurationError);
    expect((caught as ConfigurationError).problems.join(" ")).toContain(name!);
  }
});

test("createServer refuses limits that cannot be, before it listens", () => {
  expect(() => createServer({ allowOpen: true, batchMaxItems: 0 })).toThrow(ConfigurationError);
  expect(() => createServer({ allowOpen: true, batchMaxBytes: 256 * 1024 * 1024 })).toThrow(ConfigurationError);
  expect(() => createServer({ allowOpen: true, batchMaxItems: 10, batchMaxBytes: 4096 })).not.toThrow();
});
