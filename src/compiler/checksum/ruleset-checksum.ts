import { canonicalJson } from "../../engine/value/canonical-json.ts";
import type { JsonValue } from "../../engine/value/json-value.ts";
import { sha256Hex } from "./sha256.ts";

const encoder = new TextEncoder();

/** The checksum of a resolved ruleset (specification section 6): SHA-256 of its canonical JSON. */
export function rulesetChecksum(resolved: JsonValue): string {
  return `sha256:${sha256Hex(encoder.encode(canonicalJson(resolved)))}`;
}
