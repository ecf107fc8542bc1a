/**
 * Random trace and span ids as lower-case hex (W3C Trace Context), never all zeros. The random
 * bytes come from a pool filled by one call for many ids (a call per id cost more than the rest
 * of a span), and each byte's two digits from a table (a number's toString(16) per word cost
 * twice as much).
 */
const POOL = new Uint8Array(4096);
let used = POOL.length;
const HEX_PAIRS = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

export function newTraceId(): string {
  return randomHex(16);
}

export function newSpanId(): string {
  return randomHex(8);
}

function randomHex(bytes: number): string {
  for (;;) {
    if (used + bytes > POOL.length) {
      crypto.getRandomValues(POOL);
      used = 0;
    }
    let hex = "";
    let any = 0;
    for (let i = used; i < used + bytes; i++) {
      const byte = POOL[i]!;
      any |= byte;
      hex += HEX_PAIRS[byte];
    }
    used += bytes;
    if (any !== 0) return hex;
  }
}
