/** A command line that cannot be run as written; `runCommand` writes it with the usage and exits 2. */
export class UsageError extends Error {
  readonly code = "USAGE" as const;
  override readonly name = "UsageError";
}
