/** Error codes of the engine protocol (specification section 13). */
export type ProtocolErrorCode =
  | "BAD_REQUEST"
  | "UNKNOWN_RULESET"
  | "CHANNEL_UNAVAILABLE"
  | "LOAD_FAILED"
  | "EVALUATION_ERROR"
  | "UNSUPPORTED";

import type { LoadProblem } from "../engine/bundle/load-problem.ts";

/** A request the engine answers with `{"ok": false, "error": ...}`. */
export class ProtocolError extends Error {
  override readonly name = "ProtocolError";
  constructor(
    readonly code: ProtocolErrorCode,
    message: string,
    /** For LOAD_FAILED: every problem found. */
    readonly problems?: readonly LoadProblem[],
  ) {
    super(message);
  }
}

export function badRequest(message: string): never {
  throw new ProtocolError("BAD_REQUEST", message);
}
