/**
 * Depth of a value (specification 4.7): scalars have depth 0, a list or an object one more than
 * its deepest member. The walk stops at the limit, so it ends on any input without deep recursion
 * beyond the limit.
 */
export const MAX_VALUE_DEPTH = 64;

/**
 * Whether lists and objects nest in `value` more than `limit` deep. An object's own members are
 * visited in place (`for...in` and `Object.hasOwn`) rather than copied into a list: every request
 * is walked.
 */
export function isDeeperThan(value: unknown, limit: number): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (limit < 1) return true;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) if (isDeeperThan(value[index], limit - 1)) return true;
    return false;
  }
  for (const key in value)
    if (Object.hasOwn(value, key) && isDeeperThan((value as Record<string, unknown>)[key], limit - 1)) return true;
  return false;
}
