import type { Clock } from "../../src/server/refresh/clock.ts";

interface Pending {
  readonly at: number;
  readonly then: () => void;
  readonly order: number;
}

/**
 * A clock a test moves by hand: timers fire when `advance` passes their time, in order, and what
 * each started (a reload) runs before the next fires. Tests of schedules advance it rather than sleep.
 */
export class ManualClock implements Clock {
  private time: number;
  private pending: Pending[] = [];
  private made = 0;

  constructor(start: Date | string) {
    this.time = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.time);
  }

  after(ms: number, then: () => void): () => void {
    const timer = { at: this.time + Math.max(ms, 0), then, order: this.made++ };
    this.pending.push(timer);
    return () => {
      this.pending = this.pending.filter((candidate) => candidate !== timer);
    };
  }

  /** Timers armed and not yet fired or cancelled. */
  get armed(): number {
    return this.pending.length;
  }

  /** Moves time on by `ms`, firing every timer due on the way, each followed by a turn of the event loop. */
  async advance(ms: number): Promise<void> {
    const end = this.time + ms;
    for (;;) {
      const due = this.pending.filter((timer) => timer.at <= end).sort((a, b) => a.at - b.at || a.order - b.order)[0];
      if (due === undefined) break;
      this.pending = this.pending.filter((timer) => timer !== due);
      this.time = due.at;
      due.then();
      await settled();
    }
    this.time = end;
    await settled();
  }
}

/** A turn of the event loop: promises a timer started (a reload and its swap) have run. */
function settled(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 1));
}
