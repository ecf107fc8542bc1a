/**
 * The protobuf wire format, as much as OTLP's messages need: varints, fixed64, doubles, and
 * length-delimited fields (strings, bytes, nested messages), written into one growing buffer. A
 * nested message's content is written after room for its length; once its length is known, the
 * content moves back over the room it did not need (a copy within the buffer).
 */
export class ProtobufWriter {
  private buffer: Uint8Array;
  private view: DataView;
  private length = 0;

  /**
   * `capacity`: the bytes it is likely to take; growing copies everything written so far.
   * `reused`: a buffer to write into instead of a new one, when it holds `capacity`.
   */
  constructor(capacity = 4096, reused?: Uint8Array) {
    this.buffer = reused !== undefined && reused.length >= capacity ? reused : new Uint8Array(capacity);
    this.view = new DataView(this.buffer.buffer, this.buffer.byteOffset, this.buffer.length);
  }

  /** Field `field` holding a varint (wire type 0); a zero is left out, as proto3 does. */
  varint(field: number, value: number): this {
    if (value === 0) return this;
    this.tag(field, 0);
    this.rawVarint(value);
    return this;
  }

  /** A bool in a oneof: written even when false, since a oneof member says which it is. */
  oneofBool(field: number, value: boolean): this {
    this.tag(field, 0);
    this.rawVarint(value ? 1 : 0);
    return this;
  }

  /** A signed 64-bit integer in a oneof, as a varint (a negative is ten bytes of two's complement), written even when zero. */
  oneofInt64(field: number, value: number): this {
    this.tag(field, 0);
    if (value >= 0 && value <= Number.MAX_SAFE_INTEGER) {
      this.rawVarint(value);
      return this;
    }
    let big = BigInt.asUintN(64, BigInt(value));
    this.room(10);
    while (big >= 0x80n) {
      this.buffer[this.length++] = Number(big & 0x7fn) | 0x80;
      big >>= 7n;
    }
    this.buffer[this.length++] = Number(big);
    return this;
  }

  /**
   * Field `field` holding a fixed64 of nanoseconds from milliseconds since the epoch (with
   * fractions), written as two 32-bit words: every span has two, and a BigInt each cost more than
   * the rest of the field. Whole milliseconds split into words keep every product exact in doubles.
   */
  fixed64Nanoseconds(field: number, ms: number): this {
    this.tag(field, 1);
    this.room(8);
    const whole = Math.floor(ms);
    const high = Math.floor(whole / 0x100000000);
    // Below 2^32 ms times 10^6, plus the fraction's nanoseconds: under 2^53, exact.
    const low = (whole - high * 0x100000000) * 1_000_000 + Math.round((ms - whole) * 1_000_000);
    const carry = Math.floor(low / 0x100000000);
    this.view.setUint32(this.length, low - carry * 0x100000000, true);
    this.view.setUint32(this.length + 4, high * 1_000_000 + carry, true);
    this.length += 8;
    return this;
  }

  double(field: number, value: number): this {
    this.tag(field, 1);
    this.room(8);
    this.view.setFloat64(this.length, value, true);
    this.length += 8;
    return this;
  }

  string(field: number, value: string): this {
    if (value === "") return this;
    return this.oneofString(field, value);
  }

  /** A string in a oneof: written even when empty. */
  oneofString(field: number, value: string): this {
    this.tag(field, 2);
    // At most three bytes per UTF-16 unit; the length goes before, in one byte when the string
    // cannot reach 128 bytes (names, keys, most values: nothing to move back), else at most five.
    const short = value.length * 3 < 0x80;
    this.room(value.length * 3 + 5);
    const start = this.length + (short ? 1 : 5);
    let end = start;
    const buffer = this.buffer;
    // Most strings are ASCII: their bytes are their char codes, with no encoder and no view.
    for (let i = 0; i < value.length; i++) {
      const code = value.charCodeAt(i);
      if (code >= 0x80) {
        end = start + ENCODER.encodeInto(value, buffer.subarray(start)).written;
        break;
      }
      buffer[end++] = code;
    }
    this.length = end;
    if (short) buffer[start - 1] = end - start;
    else this.settle(start, 5);
    return this;
  }

  /** `count` bytes of `source` from `at` (trace and span ids), copied a byte at a time: they are few. */
  bytes(field: number, source: Uint8Array, at: number, count: number): this {
    this.tag(field, 2);
    this.rawVarint(count);
    this.room(count);
    const buffer = this.buffer;
    let length = this.length;
    for (let i = at; i < at + count; i++) buffer[length++] = source[i]!;
    this.length = length;
    return this;
  }

  /** A nested message, always written (an empty one too: it says the member is there). */
  message(field: number, write: (nested: ProtobufWriter) => void): this {
    const start = this.open(field);
    write(this);
    return this.close(start);
  }

  /** Starts a nested message, without a closure: its content follows, then `close` with what this returns. */
  open(field: number): number {
    return this.openWithRoom(field, 5);
  }

  close(start: number): this {
    return this.settle(start, 5);
  }

  /**
   * Starts a nested message that is nearly always 128 bytes to 16 KiB long (a span): two bytes of
   * room for its length, so closing it moves nothing (closeMedium).
   */
  openMedium(field: number): number {
    return this.openWithRoom(field, 2);
  }

  closeMedium(start: number): this {
    return this.settle(start, 2);
  }

  /**
   * Starts a nested message that is nearly always under 128 bytes (an attribute, its value, a
   * status): one byte of room for its length, so closing it moves nothing (closeSmall).
   */
  openSmall(field: number): number {
    return this.openWithRoom(field, 1);
  }

  /** Closes what openSmall started; content of 128 bytes or more moves forward to make room for its longer length. */
  closeSmall(start: number): this {
    const count = this.length - start;
    if (count < 0x80) {
      this.buffer[start - 1] = count;
      return this;
    }
    return this.settle(start, 1);
  }

  /** Bytes already in the wire format (fields encoded before), as they are; a few dozen are copied in line, cheaper than a call to `set`. */
  raw(bytes: Uint8Array): this {
    this.room(bytes.length);
    if (bytes.length > 64) this.buffer.set(bytes, this.length);
    else {
      const buffer = this.buffer;
      for (let i = 0; i < bytes.length; i++) buffer[this.length + i] = bytes[i]!;
    }
    this.length += bytes.length;
    return this;
  }

  /** How many bytes are written. */
  get size(): number {
    return this.length;
  }

  /** A copy of what was written from `start` on. */
  copyOf(start: number): Uint8Array {
    return this.buffer.slice(start, this.length);
  }

  /** The buffer written into, for another writer once what finish() gave is no longer read. */
  get written(): Uint8Array {
    return this.buffer;
  }

  /** What was written, as a view of the writer's buffer (no copy): the writer is done with. */
  finish(): Uint8Array {
    return this.buffer.subarray(0, this.length);
  }

  /** A length-delimited field's tag and `room` bytes for its length; returns where its content starts. */
  private openWithRoom(field: number, room: number): number {
    this.tag(field, 2);
    this.room(room);
    this.length += room;
    return this.length;
  }

  /**
   * The content from `start` to the end was written after `room` bytes for its length: the length
   * goes there, and the content moves back over room it did not need, or forward for a length
   * longer than the room.
   */
  private settle(start: number, room: number): this {
    const count = this.length - start;
    const needed = varintLength(count);
    if (needed > room) {
      this.room(needed - room);
      this.buffer.copyWithin(start + needed - room, start, start + count);
    }
    this.length = start - room;
    this.rawVarint(count);
    if (needed < room) this.buffer.copyWithin(this.length, start, start + count);
    this.length += count;
    return this;
  }

  private tag(field: number, wireType: number): void {
    this.rawVarint(field * 8 + wireType);
  }

  private rawVarint(value: number): void {
    this.room(10);
    let rest = value;
    while (rest >= 0x80) {
      this.buffer[this.length++] = (rest & 0x7f) | 0x80;
      rest = Math.floor(rest / 128);
    }
    this.buffer[this.length++] = rest;
  }

  private room(bytes: number): void {
    if (this.length + bytes <= this.buffer.length) return;
    let size = this.buffer.length * 2;
    while (size < this.length + bytes) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(this.buffer.subarray(0, this.length));
    this.buffer = grown;
    this.view = new DataView(grown.buffer);
  }
}

const ENCODER = new TextEncoder();

function varintLength(value: number): number {
  let length = 1;
  for (let rest = value; rest >= 0x80; rest = Math.floor(rest / 128)) length++;
  return length;
}
