import { canonicalJson } from "../../engine/value/canonical-json.ts";
import type { JsonValue } from "../../engine/value/json-value.ts";
import { sha256Hex } from "./sha256.ts";

const encoder = new TextEncoder();

/** SHA-256 of bytes as lower-case hex. */
export type Sha256 = (bytes: Uint8Array) => string;

/**
 * The checksum of a resolved ruleset (specification section 6): SHA-256 of its canonical JSON.
 * A host with a native SHA-256 passes it (the server compiles every ruleset at start-up); the
 * portable one gives the same digest anywhere.
 */
export function rulesetChecksum(resolved: JsonValue, sha256: Sha256 = sha256Hex): string {
  return "sha256:" + sha256(encoder.encode(canonicalJson(resolved)));
}
