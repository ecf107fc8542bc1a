import type { PlanCondition } from "../engine/plan/plan-condition.ts";
import { PlanNotTranslatableError } from "./plan-not-translatable.ts";
import { quotedIdentifier, type SqlDialect, type SqlFragment } from "./sql-fragment.ts";
import { checkedText } from "./translatable-text.ts";

/** PostgreSQL cuts longer identifiers to this many bytes, which could name another column. */
const POSTGRES_IDENTIFIER_BYTES = 63;
const ENCODER = new TextEncoder();

/** A column name quoted as one identifier, or refused when no quoting names it exactly. */
export function columnIdentifier(name: string, dialect: SqlDialect, node: PlanCondition): SqlFragment {
  if (name === "") throw new PlanNotTranslatableError("a column name is empty", node);
  if (name.includes("\u0000"))
    throw new PlanNotTranslatableError(`the column name ${JSON.stringify(name)} holds NUL`, node);
  checkedText(name, "the column name", node);
  if (dialect === "postgresql" && ENCODER.encode(name).length > POSTGRES_IDENTIFIER_BYTES)
    throw new PlanNotTranslatableError(
      `the column name ${JSON.stringify(name)} is longer than PostgreSQL's ${POSTGRES_IDENTIFIER_BYTES} bytes`,
      node,
    );
  return quotedIdentifier(name);
}
