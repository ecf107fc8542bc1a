import { canonicalNumberText } from "../../engine/number/canonical-number.ts";
import { isDecimal } from "../../engine/number/decimal.ts";
import { sortedKeys } from "../../engine/value/canonical-json.ts";
import type { Value } from "../../engine/value/value-kind.ts";

const encoder = new TextEncoder();
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The canonical JSON of a value (canonical-json.ts) as UTF-8 bytes, written straight into a buffer:
 * what a checksum hashes. At a thousand rulesets the canonical text is tens of megabytes at
 * start-up, and building it as a string and then encoding it took twice as long. The bytes are
 * those of `TextEncoder.encode(canonicalJson(value))`, which a test holds them to.
 */
export function canonicalJsonBytes(value: Value): Uint8Array {
  const writer = new ByteWriter();
  writer.value(value);
  return writer.bytes();
}

class ByteWriter {
  private buffer = new Uint8Array(1 << 16);
  private length = 0;

  bytes(): Uint8Array {
    return this.buffer.subarray(0, this.length);
  }

  value(value: Value): void {
    if (value === null) this.ascii("null");
    else if (typeof value === "string") this.string(value);
    else if (typeof value === "boolean") this.ascii(value ? "true" : "false");
    else if (typeof value === "number" || isDecimal(value)) this.ascii(canonicalNumberText(value));
    else if (Array.isArray(value)) {
      this.byte(0x5b);
      for (let i = 0; i < value.length; i++) {
        if (i > 0) this.byte(0x2c);
        this.value(value[i]!);
      }
      this.byte(0x5d);
    } else {
      const keys = sortedKeys(value);
      this.byte(0x7b);
      for (let i = 0; i < keys.length; i++) {
        if (i > 0) this.byte(0x2c);
        this.string(keys[i]!);
        this.byte(0x3a);
        this.value(value[keys[i]!]!);
      }
      this.byte(0x7d);
    }
  }

  /** A string between quotes: byte for byte while it is printable ASCII with nothing to escape, else as JSON.stringify writes it. */
  private string(text: string): void {
    this.room(text.length + 2);
    const start = this.length;
    const buffer = this.buffer;
    let at = start;
    buffer[at++] = QUOTE;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code < 0x20 || code >= 0x80 || code === QUOTE || code === BACKSLASH) {
        this.length = start;
        this.encoded(JSON.stringify(text));
        return;
      }
      buffer[at++] = code;
    }
    buffer[at++] = QUOTE;
    this.length = at;
  }

  private encoded(text: string): void {
    const bytes = encoder.encode(text);
    this.room(bytes.length);
    this.buffer.set(bytes, this.length);
    this.length += bytes.length;
  }

  /** Text known to be ASCII: numbers, literals. */
  private ascii(text: string): void {
    this.room(text.length);
    for (let i = 0; i < text.length; i++) this.buffer[this.length++] = text.charCodeAt(i);
  }

  private byte(byte: number): void {
    this.room(1);
    this.buffer[this.length++] = byte;
  }

  private room(bytes: number): void {
    if (this.length + bytes <= this.buffer.length) return;
    let size = this.buffer.length * 2;
    while (size < this.length + bytes) size *= 2;
    const larger = new Uint8Array(size);
    larger.set(this.bytes());
    this.buffer = larger;
  }
}
