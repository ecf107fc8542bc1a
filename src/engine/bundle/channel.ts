/** The two channels a ruleset is published on (specification section 7). */
export type Channel = "server" | "client";

export function isChannel(value: unknown): value is Channel {
  return value === "server" || value === "client";
}
