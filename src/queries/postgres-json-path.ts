import type { PlanCondition } from "../engine/plan/plan-condition.ts";
import { pointerKeys } from "../engine/plan/data-pointer.ts";
import { PlanNotTranslatableError } from "./plan-not-translatable.ts";
import { joined, parameter, type SqlFragment, sql } from "./sql-fragment.ts";
import { checkedText } from "./translatable-text.ts";

const ASCII_DIGITS = /^[0-9]+$/;
const HAS_DIGIT = /[0-9]/;

/**
 * The jsonb at a pointer below `json` (NULL when it does not resolve): `json #> $n::text[]`, the
 * keys a text[] parameter. `#>` reads a key of a list as an index when it parses as an integer,
 * as evaluation does for keys of ASCII digits; but PostgreSQL also parses `-1` (from the end),
 * `+1` and ` 1`, which evaluation reads as no index. So where a key with a digit is not all
 * digits, the value is NULL when the container at that key is a list.
 */
export function postgresJsonAt(json: SqlFragment, pointer: string, node: PlanCondition): SqlFragment {
  const keys = pointerKeys(pointer);
  if (keys.length === 0) return json;
  for (const key of keys) {
    checkedText(key, "the key", node);
    if (key.includes("\u0000"))
      throw new PlanNotTranslatableError(
        `the key ${JSON.stringify(key)} holds NUL, which PostgreSQL text cannot`,
        node,
      );
  }
  const value = sql`${json} #> ${parameter(keys)}::text[]`;
  const guards = keys.flatMap((key, index) => {
    if (ASCII_DIGITS.test(key) || !HAS_DIGIT.test(key)) return [];
    const container = index === 0 ? json : sql`${json} #> ${parameter(keys.slice(0, index))}::text[]`;
    return [sql`jsonb_typeof(${container}) = 'array'`];
  });
  if (guards.length === 0) return sql`(${value})`;
  return sql`(CASE WHEN ${joined(guards, " OR ")} THEN NULL ELSE ${value} END)`;
}
