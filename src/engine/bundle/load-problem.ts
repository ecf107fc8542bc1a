/**
 * Problems that stop a ruleset from loading: the codes of specification sections 5, 7 and 12.
 * `LoadError` carries every problem found, so a user sees them all at once.
 */
export interface LoadProblem {
  readonly code: string;
  readonly message: string;
  readonly rule?: string;
  readonly file?: string;
  /** 1-based, in `file`, where the source has a place for the problem. */
  readonly line?: number;
  readonly column?: number;
  /**
   * For a problem in a file that a ruleset refers to (an entity schema named by a `$ref`), the
   * place of the reference; the message names it too.
   */
  readonly referencedAt?: { readonly file: string; readonly line: number; readonly column?: number };
  /** For a name defined twice (RULE_DUPLICATE), where it was defined first; the message says so too. */
  readonly firstDefinedAt?: { readonly file: string; readonly line: number; readonly column?: number };
}

export class LoadError extends Error {
  readonly code = "LOAD_FAILED" as const;
  override readonly name = "LoadError";
  constructor(readonly problems: readonly LoadProblem[]) {
    super(problems.map((problem) => `${problem.code}: ${problem.message}`).join("; "));
  }
}

export function loadFailure(code: string, message: string): never {
  throw new LoadError([{ code, message }]);
}
