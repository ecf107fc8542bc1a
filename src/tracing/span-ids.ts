/** Random trace and span ids as lower-case hex (W3C Trace Context), never all zeros. */
const bytes16 = new Uint8Array(16);
const bytes8 = new Uint8Array(8);

export function newTraceId(): string {
  return randomHex(bytes16);
}

export function newSpanId(): string {
  return randomHex(bytes8);
}

function randomHex(buffer: Uint8Array): string {
  for (;;) {
    crypto.getRandomValues(buffer);
    let hex = "";
    let zero = true;
    for (const byte of buffer) {
      if (byte !== 0) zero = false;
      hex += HEX[byte]!;
    }
    if (!zero) return hex;
  }
}

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));
