import { accessSync, constants, readFileSync, statSync } from "node:fs";

/** A file named on the command line that cannot be read: a one-line message naming it and the system's reason. */
export class InputFileError extends Error {
  readonly code = "FILE_UNREADABLE" as const;
  override readonly name = "InputFileError";
  constructor(
    /** What the file is for, as the message names it ("the request file"). */
    role: string,
    readonly file: string,
    cause: unknown,
  ) {
    super(`cannot read ${role} ${file}: ${systemReason(cause)}`);
  }
}

/** The text of a file named on the command line; throws InputFileError when it cannot be read. */
export function readInputText(file: string, role: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    throw new InputFileError(role, file, error);
  }
}

/**
 * Throws InputFileError unless the file exists, is not a directory and may be read: for a file
 * read later as a stream, whose errors would otherwise surface halfway through.
 */
export function checkInputFile(file: string, role: string): void {
  let directory: boolean;
  try {
    directory = statSync(file).isDirectory();
    accessSync(file, constants.R_OK);
  } catch (error) {
    throw new InputFileError(role, file, error);
  }
  if (directory) throw new InputFileError(role, file, "it is a directory");
}

/**
 * "no such file or directory (ENOENT)" from a system error, whose message also repeats the call
 * and the path ("ENOENT: no such file or directory, open 'x.json'"); the path is in our message already.
 */
function systemReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code !== "string" || !message.startsWith(`${code}: `)) return message;
  const reason = message.slice(code.length + 2).replace(/, \w+( '.*')?$/, "");
  return `${reason} (${code})`;
}
