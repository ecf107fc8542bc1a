/** Why rules could not be pulled from their source; `code` names the fault for logs and metrics. */
export type SourceErrorCode =
  /** RULES_SOURCE is not an `oci://` or `https://` reference this server can pull. */
  | "RULES_SOURCE_INVALID"
  /** The pull failed: unreachable, refused, timed out, or what came back is not a rules release. */
  | "SOURCE_PULL_FAILED"
  /** The cache directory (RULES_SOURCE_CACHE) cannot be written or read. */
  | "SOURCE_CACHE_UNUSABLE";

export class SourceError extends Error {
  override readonly name = "SourceError";
  constructor(
    readonly code: SourceErrorCode,
    message: string,
    /** The code of the underlying fault (an OCI error's, or the other server's HTTP status), when there is one. */
    readonly fault?: string,
  ) {
    super(message);
  }
}
