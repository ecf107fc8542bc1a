/**
 * The protobuf wire format, as much as OTLP's messages need: varints, fixed64, doubles, and
 * length-delimited fields (strings, bytes, nested messages). A nested message is written to its own
 * writer first, so that its length is known.
 */
export class ProtobufWriter {
  private chunks: number[] = [];

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
    let big = BigInt.asUintN(64, BigInt(value));
    while (big >= 0x80n) {
      this.chunks.push(Number(big & 0x7fn) | 0x80);
      big >>= 7n;
    }
    this.chunks.push(Number(big));
    return this;
  }

  /** Field `field` holding a fixed64 (wire type 1), little-endian. */
  fixed64(field: number, value: bigint): this {
    this.tag(field, 1);
    let rest = BigInt.asUintN(64, value);
    for (let i = 0; i < 8; i++) {
      this.chunks.push(Number(rest & 0xffn));
      rest >>= 8n;
    }
    return this;
  }

  double(field: number, value: number): this {
    this.tag(field, 1);
    const view = new DataView(new ArrayBuffer(8));
    view.setFloat64(0, value, true);
    for (let i = 0; i < 8; i++) this.chunks.push(view.getUint8(i));
    return this;
  }

  string(field: number, value: string): this {
    if (value === "") return this;
    return this.bytes(field, new TextEncoder().encode(value));
  }

  /** Lower-case hex as bytes (trace and span ids). */
  hexBytes(field: number, hex: string): this {
    const bytes = new Uint8Array(hex.length / 2);
    for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
    return this.bytes(field, bytes);
  }

  bytes(field: number, value: Uint8Array): this {
    this.tag(field, 2);
    this.rawVarint(value.length);
    for (const byte of value) this.chunks.push(byte);
    return this;
  }

  /** A nested message, always written (an empty one too: it says the member is there). */
  message(field: number, write: (nested: ProtobufWriter) => void): this {
    const nested = new ProtobufWriter();
    write(nested);
    return this.bytes(field, nested.finish());
  }

  finish(): Uint8Array {
    return Uint8Array.from(this.chunks);
  }

  private tag(field: number, wireType: number): void {
    this.rawVarint(field * 8 + wireType);
  }

  private rawVarint(value: number): void {
    let rest = value;
    while (rest >= 0x80) {
      this.chunks.push((rest & 0x7f) | 0x80);
      rest = Math.floor(rest / 128);
    }
    this.chunks.push(rest);
  }
}
