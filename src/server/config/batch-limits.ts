import { ConfigurationError, type ServerOptions } from "./server-options.ts";

/** How large a `POST /evaluations/batch` may be (RULE_SERVER_BATCH_MAX_ITEMS, RULE_SERVER_BATCH_MAX_BYTES). */
export interface BatchLimits {
  readonly maxItems: number;
  readonly maxBytes: number;
}

export const DEFAULT_BATCH_LIMITS: BatchLimits = { maxItems: 1000, maxBytes: 16 * 1024 * 1024 };

/** Bun.serve refuses a larger body itself (its default maxRequestBodySize): no limit of ours can be above it. */
export const HTTP_BODY_CEILING = 128 * 1024 * 1024;

export const isBatchMaxItems = (value: number): boolean => Number.isSafeInteger(value) && value > 0;
export const isBatchMaxBytes = (value: number): boolean =>
  Number.isSafeInteger(value) && value > 0 && value <= HTTP_BODY_CEILING;

/** The limits of the options, the defaults where they say nothing; ConfigurationError for a limit that cannot be. */
export function batchLimitsOf(options: Pick<ServerOptions, "batchMaxItems" | "batchMaxBytes">): BatchLimits {
  const limits = {
    maxItems: options.batchMaxItems ?? DEFAULT_BATCH_LIMITS.maxItems,
    maxBytes: options.batchMaxBytes ?? DEFAULT_BATCH_LIMITS.maxBytes,
  };
  const problems: string[] = [];
  if (!isBatchMaxItems(limits.maxItems))
    problems.push(`batchMaxItems must be a positive integer, got ${limits.maxItems}`);
  if (!isBatchMaxBytes(limits.maxBytes))
    problems.push(
      `batchMaxBytes must be a positive integer of at most ${HTTP_BODY_CEILING} (128 MiB), got ${limits.maxBytes}`,
    );
  if (problems.length > 0) throw new ConfigurationError(problems);
  return limits;
}
