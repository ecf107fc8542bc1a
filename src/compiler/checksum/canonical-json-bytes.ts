import { canonicalNumberText } from "../../engine/number/canonical-number.ts";
import { isDecimal } from "../../engine/number/decimal.ts";
import { sortedKeys } from "../../engine/value/canonical-json.ts";
import type { Value } from "../../engine/value/value-kind.ts";

const encoder = new TextEncoder();
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** One buffer for every call, grown as needed: a call is synchronous and its bytes are hashed at once. */
let buffer = new Uint8Array(1 << 16);
let length = 0;

/**
 * The canonical JSON of a value (canonical-json.ts) as UTF-8 bytes, written straight into a buffer:
 * what a checksum hashes. At a thousand rulesets the canonical text is tens of megabytes at
 * start-up, and building it as a string and then encoding it took twice as long. The bytes are
 * those of `TextEncoder.encode(canonicalJson(value))`, which a test holds them to. They are valid
 * until the next call, which writes over them: copy them to keep them.
 */
export function canonicalJsonBytes(value: Value): Uint8Array {
  length = 0;
  write(value);
  return buffer.subarray(0, length);
}

function write(value: Value): void {
  if (value === null) ascii("null");
  else if (typeof value === "string") string(value);
  else if (typeof value === "boolean") ascii(value ? "true" : "false");
  else if (typeof value === "number" || isDecimal(value)) ascii(canonicalNumberText(value));
  else if (Array.isArray(value)) {
    byte(0x5b);
    for (let i = 0; i < value.length; i++) {
      if (i > 0) byte(0x2c);
      write(value[i]!);
    }
    byte(0x5d);
  } else {
    const keys = sortedKeys(value);
    byte(0x7b);
    for (let i = 0; i < keys.length; i++) {
      if (i > 0) byte(0x2c);
      string(keys[i]!);
      byte(0x3a);
      write(value[keys[i]!]!);
    }
    byte(0x7d);
  }
}

/** A string between quotes: byte for byte while it is printable ASCII with nothing to escape, else as JSON.stringify writes it. */
function string(text: string): void {
  if (length + text.length + 2 > buffer.length) grow(text.length + 2);
  let at = length;
  buffer[at++] = QUOTE;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code >= 0x80 || code === QUOTE || code === BACKSLASH) {
      encoded(JSON.stringify(text));
      return;
    }
    buffer[at++] = code;
  }
  buffer[at++] = QUOTE;
  length = at;
}

function encoded(text: string): void {
  const bytes = encoder.encode(text);
  if (length + bytes.length > buffer.length) grow(bytes.length);
  buffer.set(bytes, length);
  length += bytes.length;
}

/** Text known to be ASCII: numbers, literals. */
function ascii(text: string): void {
  if (length + text.length > buffer.length) grow(text.length);
  for (let i = 0; i < text.length; i++) buffer[length++] = text.charCodeAt(i);
}

function byte(value: number): void {
  if (length === buffer.length) grow(1);
  buffer[length++] = value;
}

function grow(bytes: number): void {
  let size = buffer.length * 2;
  while (size < length + bytes) size *= 2;
  const larger = new Uint8Array(size);
  larger.set(buffer.subarray(0, length));
  buffer = larger;
}
