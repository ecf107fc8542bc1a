/** The two channels a ruleset is published on (specification section 7). */
export type Channel = "server" | "client";

export function isChannel(value: unknown): value is Channel {
  return value === "server" || value === "client";
}

/** A channel was asked of a ruleset read from the other channel's manifest alone. */
export class ChannelUnavailableError extends Error {
  readonly code = "CHANNEL_UNAVAILABLE" as const;
  override readonly name = "ChannelUnavailableError";
}
