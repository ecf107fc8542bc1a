/**
 * Span ids (W3C Trace Context): a trace id of 16 bytes and a span id of 8, never all zeros, kept
 * as bytes for the protobuf encoder and as lower-case hex for log lines, decision records and
 * JSON. Each span claims 32 bytes of a block of random bytes drawn by one call for a hundred
 * spans: its trace id, its own id, its parent's id (TRACE_AT, SPAN_AT, PARENT_AT). A block is
 * never written again once its bytes are claimed, so a span's bytes stay its own until its batch
 * has encoded them. The hex of a whole block is made by one native call when it is drawn, and a
 * span's ids are slices of it: building hex a byte at a time, or a call per span, and parsing it
 * back into bytes to encode it, each cost more than the rest of a span.
 */
export const TRACE_AT = 0;
export const SPAN_AT = 16;
export const PARENT_AT = 24;
const SPAN_BYTES = 32;
const BLOCK_BYTES = SPAN_BYTES * 128;

let block = Buffer.alloc(0);
let blockHex = "";
let next = BLOCK_BYTES;

/** Claims a span's 32 bytes, random; they are at the returned offset of claimedBlock() until the next claim. */
export function claimSpanBytes(): number {
  if (next + SPAN_BYTES > BLOCK_BYTES) {
    block = Buffer.alloc(BLOCK_BYTES);
    crypto.getRandomValues(block);
    blockHex = block.toString("hex");
    next = 0;
  }
  const at = next;
  next += SPAN_BYTES;
  // All zeros is not an id: one in 2^64 draws, made valid rather than drawn again.
  if (allZero(block, at + TRACE_AT, 16) || allZero(block, at + SPAN_AT, 8)) {
    block[at + TRACE_AT + 15] = 1;
    block[at + SPAN_AT + 7] = 1;
    blockHex = block.toString("hex");
  }
  return at;
}

/** The block the last claim was made in. */
export function claimedBlock(): Buffer {
  return block;
}

/** The hex of `count` bytes at `at` of the block the last claim was made in (as drawn: the bytes a span copies in are not in it). */
export function claimedHex(at: number, count: number): string {
  return blockHex.slice(2 * at, 2 * (at + count));
}

/** Lower-case hex (an incoming trace or parent id) written as bytes at `at`. */
export function writeHex(bytes: Uint8Array, at: number, hex: string): void {
  for (let i = 0; i < hex.length >> 1; i++)
    bytes[at + i] = (hexDigit(hex.charCodeAt(i * 2)) << 4) | hexDigit(hex.charCodeAt(i * 2 + 1));
}

export function copyBytes(from: Uint8Array, fromAt: number, to: Uint8Array, toAt: number, count: number): void {
  for (let i = 0; i < count; i++) to[toAt + i] = from[fromAt + i]!;
}

function allZero(bytes: Uint8Array, at: number, count: number): boolean {
  for (let i = at; i < at + count; i++) if (bytes[i] !== 0) return false;
  return true;
}

function hexDigit(code: number): number {
  return code <= 0x39 ? code - 0x30 : code - 0x57;
}
