import { EXPLAIN_REFUSAL, isExplainMode, type ExplainMode } from "../../engine/explanation/explanation.ts";
import { HttpError } from "../http/http-error.ts";

/**
 * `?explain=rules|full` of `POST /evaluations` and `POST /evaluations/batch` (DECISIONS.md,
 * Extensions); any other value is refused before the body is read.
 */
export function explainQuery(url: string): ExplainMode | undefined {
  // Most requests have no query at all: only then is the URL parsed.
  if (!url.includes("?")) return undefined;
  const value = new URL(url).searchParams.get("explain");
  if (value === null) return undefined;
  if (!isExplainMode(value)) throw new HttpError(400, EXPLAIN_REFUSAL);
  return value;
}
