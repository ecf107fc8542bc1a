/** Why talking to an OCI registry failed; `code` names the fault for logs, metrics and tests. */
export type OciErrorCode =
  /** The `oci://` reference is not one this client understands (or a push names a digest, not a tag). */
  | "OCI_REFERENCE_INVALID"
  /** RULE_SERVER_REGISTRY_AUTH or the Docker config.json holds no usable `user:password`. */
  | "REGISTRY_CREDENTIALS_INVALID"
  /** The registry (or its token server) could not be reached, or closed the connection. */
  | "REGISTRY_UNREACHABLE"
  /** The registry or its token server refused the credentials, or there were none and it wants some. */
  | "REGISTRY_AUTH_FAILED"
  /** An answer the protocol does not expect; `registryCode` holds the registry's own error code. */
  | "REGISTRY_REFUSED"
  /** A request (or reading its answer) took longer than the timeout. */
  | "REGISTRY_TIMEOUT"
  | "MANIFEST_NOT_FOUND"
  | "MANIFEST_TOO_LARGE"
  /** A manifest that is not JSON, not an OCI image manifest, or whose layers are not plain, unique file names. */
  | "MANIFEST_INVALID"
  /** The manifest's bytes do not hash to the digest asked for or announced by the registry. */
  | "MANIFEST_DIGEST_MISMATCH"
  /** A blob's bytes do not hash to its descriptor's digest, or are fewer than its size. */
  | "BLOB_DIGEST_MISMATCH"
  /** A blob larger than its descriptor says, or than the limit. */
  | "BLOB_TOO_LARGE"
  /** The manifest is another kind of artifact, or one of its layers is not a bundle or a signature. */
  | "ARTIFACT_TYPE_UNEXPECTED"
  /** The files given to push cannot make an artifact: no files, names that are not plain file names, twice the same name. */
  | "ARTIFACT_FILES_INVALID";

export class OciError extends Error {
  override readonly name = "OciError";
  constructor(
    readonly code: OciErrorCode,
    /** Never holds a credential or a token. */
    message: string,
    /** The HTTP status of the answer that caused it, when there was one. */
    readonly status?: number,
    /** The registry's own error code from its JSON body (`{"errors":[{"code":...}]}`), when it gave one. */
    readonly registryCode?: string,
  ) {
    super(message);
  }
}
