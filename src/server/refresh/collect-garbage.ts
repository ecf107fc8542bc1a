/**
 * A full garbage collection, now: after a load of the rules, whose garbage is many times what it
 * keeps, so that the memory is free before what is kept is made (see rules-snapshot.ts).
 */
export function collectGarbage(): void {
  Bun.gc(true);
}
