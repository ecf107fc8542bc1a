/**
 * Random trace and span ids as lower-case hex (W3C Trace Context), never all zeros. The random
 * words come from a pool filled by one call for many ids: a call per id cost more than the rest
 * of a span, and so did joining an id from a string per byte.
 */
const POOL = new Uint32Array(1024);
let used = POOL.length;

export function newTraceId(): string {
  return randomHex(4);
}

export function newSpanId(): string {
  return randomHex(2);
}

function randomHex(words: number): string {
  for (;;) {
    if (used + words > POOL.length) {
      crypto.getRandomValues(POOL);
      used = 0;
    }
    let hex = "";
    let zero = true;
    for (let i = used; i < used + words; i++) {
      const word = POOL[i]!;
      if (word !== 0) zero = false;
      hex += word.toString(16).padStart(8, "0");
    }
    used += words;
    if (!zero) return hex;
  }
}
