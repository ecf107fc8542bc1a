/** Why an archive or an image could not be written. */
export type PackagingErrorCode =
  | "ARCHIVE_PATH_INVALID"
  | "ARCHIVE_PATH_TOO_LONG"
  | "ARCHIVE_ENTRY_DUPLICATE"
  | "ARCHIVE_TOO_LARGE"
  | "ZIP_SYMLINK_UNSUPPORTED"
  | "LDD_FAILED"
  | "LIBRARY_NOT_FOUND"
  | "SYMLINK_LOOP"
  | "SOURCE_DATE_EPOCH_INVALID"
  | "EXAMPLE_RULES_FAILING"
  | "NPM_PACK_FAILED"
  | "LICENSE_FILE_MISSING";

/** A packaging step that cannot go on; callers branch on `code`, never on the message. */
export class PackagingError extends Error {
  override readonly name = "PackagingError";
  constructor(
    readonly code: PackagingErrorCode,
    message: string,
  ) {
    super(message);
  }
}
