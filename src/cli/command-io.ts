import { resolve } from "node:path";

/** Where a command writes text: the process's stdout or stderr, or a test's string. */
export interface CommandOutput {
  /** Resolves once the text is taken, so that a command writing much waits instead of holding it all. */
  write(text: string): Promise<void>;
}

/**
 * What a command reads and writes besides the files it is named: its output streams, its standard
 * input, its environment and its working directory. `processIo()` is the process's own; tests
 * run commands in process with their own (test/support/run-cli.ts).
 */
export interface CommandIo {
  readonly stdout: CommandOutput;
  readonly stderr: CommandOutput;
  readonly stdin: AsyncIterable<Uint8Array>;
  readonly env: Readonly<Record<string, string | undefined>>;
  /**
   * The directory relative paths on the command line are taken from. Absent, it is the process's
   * own, and paths go to the file system as typed, so that messages name them as typed.
   */
  readonly cwd?: string;
}

export function processIo(): CommandIo {
  // Each stream is touched only by a command that uses it: Node's streams behind them are built on
  // first use, which costs the server's start-up ~15 ms it does not need (it logs through
  // src/standard-output).
  return {
    get stdout() {
      return streamOutput(process.stdout);
    },
    get stderr() {
      return streamOutput(process.stderr);
    },
    get stdin() {
      return process.stdin;
    },
    env: process.env,
  };
}

function streamOutput(stream: NodeJS.WritableStream): CommandOutput {
  return {
    write: (text) =>
      new Promise((resolve, reject) => {
        stream.write(text, (error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** A path named on the command line, as the file system is to be given it. */
export function commandPath(io: CommandIo, path: string): string {
  return io.cwd === undefined ? path : resolve(io.cwd, path);
}

/** The directory reports show paths relative to. */
export function workingDirectory(io: CommandIo): string {
  return io.cwd ?? process.cwd();
}
