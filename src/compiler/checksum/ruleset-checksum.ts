import type { JsonValue } from "../../engine/value/json-value.ts";
import { canonicalJsonBytes } from "./canonical-json-bytes.ts";
import { sha256Hex } from "./sha256.ts";

/** The checksum of a resolved ruleset (specification section 6): SHA-256 of its canonical JSON. */
export function rulesetChecksum(resolved: JsonValue): string {
  return `sha256:${sha256Hex(canonicalJsonBytes(resolved))}`;
}
