/**
 * Depth of a value (specification 4.7): scalars have depth 0, a list or an object one more than
 * its deepest member. The walk stops at the limit, so it ends on any input without deep recursion
 * beyond the limit.
 */
export const MAX_VALUE_DEPTH = 64;

/** Whether lists and objects nest in `value` more than `limit` deep. */
export function isDeeperThan(value: unknown, limit: number): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (limit < 1) return true;
  const members = Array.isArray(value) ? value : Object.values(value);
  for (const member of members) if (isDeeperThan(member, limit - 1)) return true;
  return false;
}
