/** One thing wrong in a credentials file: where, and what, for the person who edits it. */
export interface CredentialsProblem {
  /** `credentials[2].scopes[0]`, `line 4, column 1`, or "" for the file as a whole. */
  readonly place: string;
  /** What is wrong and how to put it right; it may quote a credential's name, never a token. */
  readonly message: string;
}

/**
 * Credentials that cannot be used (RULE_SERVER_CREDENTIALS, with RULE_SERVER_TOKEN beside it);
 * every problem found is listed. Its message names the file, never a token.
 */
export class CredentialsError extends Error {
  readonly code = "CREDENTIALS_INVALID" as const;
  override readonly name = "CredentialsError";
  constructor(
    /** The file's path, or what else the credentials came from. */
    readonly source: string,
    readonly problems: readonly CredentialsProblem[],
  ) {
    super(`${source}: ${problems.map(describeCredentialsProblem).join("; ")}`);
  }
}

/** `credentials[2].scopes[0]: …`, or the message alone for the file as a whole. */
export function describeCredentialsProblem(problem: CredentialsProblem): string {
  return problem.place === "" ? problem.message : `${problem.place}: ${problem.message}`;
}
