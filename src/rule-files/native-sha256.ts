import { createHash } from "node:crypto";

/**
 * The runtime's own SHA-256 for the compiler's checksums: the same digest as the compiler's
 * portable one, about fifteen times faster, which counts when a server compiles a hundred
 * rulesets at start-up.
 */
export function nativeSha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}
