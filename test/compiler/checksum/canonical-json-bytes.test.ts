import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { canonicalJsonBytes } from "../../../src/compiler/checksum/canonical-json-bytes.ts";
import { Decimal } from "../../../src/engine/number/decimal.ts";
import { canonicalJson } from "../../../src/engine/value/canonical-json.ts";
import type { Value } from "../../../src/engine/value/value-kind.ts";
import { CASES_DIR } from "../../support/golden-files.ts";

/** The checksum's bytes are the UTF-8 of the canonical text, written without building the text. */
const encoder = new TextEncoder();
const expectSameBytes = (value: Value) =>
  expect(Buffer.from(canonicalJsonBytes(value)).toString("hex")).toBe(
    Buffer.from(encoder.encode(canonicalJson(value))).toString("hex"),
  );

test("every interop bundle gives the bytes of its canonical text", () => {
  const directory = join(CASES_DIR, "interop");
  const bundles = readdirSync(directory, { recursive: true })
    .map(String)
    .filter((file) => file.endsWith(".bundle.json"));
  expect(bundles.length).toBeGreaterThan(2);
  for (const file of bundles) expectSameBytes(JSON.parse(readFileSync(join(directory, file), "utf8")));
});

test("escapes, non-ASCII text, lone surrogates, decimals and many keys give the same bytes", () => {
  const strings = [
    'say "hi"',
    "back\\slash",
    "tab\there",
    "nul\u0000",
    "\u007f",
    "é",
    "emoji 😀",
    "lone \ud800",
    "\udc00",
  ];
  expectSameBytes(strings);
  expectSameBytes(Object.fromEntries(strings.map((text, index) => [text, index])));
  expectSameBytes({ amount: new Decimal("12345678901234567890.10"), tiny: 1.5e-7, huge: 1e21, zero: -0 } as Value);
  expectSameBytes(Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${(i * 7) % 40}`, [i, `v${i}`]])));
});

test("a value longer than the first buffer grows it and loses nothing", () => {
  const long = Array.from({ length: 5000 }, (_, i) => ({ rule: `rule-${i}`, text: "x".repeat(i % 50), n: i }));
  expectSameBytes(long);
  expect(canonicalJsonBytes(long).length).toBeGreaterThan(1 << 17);
});
