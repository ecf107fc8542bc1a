/** A span's time, milliseconds since the epoch with fractions (performance.timeOrigin + now()), as OTLP's nanoseconds. */
export function nanoseconds(ms: number): bigint {
  return BigInt(Math.floor(ms)) * 1_000_000n + BigInt(Math.round((ms % 1) * 1_000_000));
}
