import type { MetricsState } from "../metrics/server-metrics.ts";
import type { ToServing } from "./serving-messages.ts";
import type { Member } from "./serving-member.ts";

/** How long a scrape waits for the other serving processes' counts; one that is late is summed with its previous counts. */
const GATHER_TIMEOUT_MS = 2000;

/**
 * A scrape's counts from every serving process: each listening one but the asking one (which sent
 * its own) is asked afresh and waited for, up to GATHER_TIMEOUT_MS; each process's reply settles
 * through its `gathers`. `send` is false for a process that can no longer be told anything.
 */
export class ScrapeGathering {
  private next = 0;

  constructor(private readonly send: (member: Member, message: ToServing) => boolean) {}

  /**
   * The counts of the stopped processes (`retired`, read once the replies are in: one may stop
   * meanwhile), then of every process that has reported.
   */
  async states(members: ReadonlySet<Member>, asking: Member, retired: () => MetricsState): Promise<MetricsState[]> {
    const gather = ++this.next;
    const asked = [...members].filter((member) => member !== asking && member.listening);
    const replies = asked.map(
      (member) =>
        new Promise<void>((resolve) => {
          member.gathers.set(gather, resolve);
          if (!this.send(member, { kind: "count", gather })) resolve();
        }),
    );
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      Promise.all(replies),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, GATHER_TIMEOUT_MS))),
    ]);
    clearTimeout(timer);
    for (const member of asked) member.gathers.delete(gather);
    const states: MetricsState[] = [retired()];
    for (const member of members) if (member.state !== undefined) states.push(member.state);
    return states;
  }
}
