import { closeSync, fstatSync, openSync, writeSync } from "node:fs";
import { writeToStandardOutput } from "../standard-output/standard-output.ts";

/** Where decision records go (`RULE_SERVER_DECISION_RECORDS`). */
export type RecordTarget = { readonly kind: "stdout" } | { readonly kind: "file"; readonly path: string };

/** Why records could not be written: the step that failed and the system's error, as the OS gave it. */
export interface RecordWriteProblem {
  readonly step: "open" | "write";
  /** ENOENT, EACCES, ENOSPC, ...; `UNKNOWN` for an error without a code. */
  readonly code: string;
  readonly message: string;
}

/**
 * What the sink tells the server: records lost (`records` may be 0: the file could not be opened
 * before any was pending), and when writing works again.
 */
export interface RecordSinkEvents {
  failed(records: number, problem: RecordWriteProblem): void;
  recovered(): void;
}

/**
 * Records wait at most this long to be written with those that follow. Each write (with its check
 * that the file is still there) costs the event loop some microseconds whatever it holds, and with
 * workers a turn of the event loop holds a few records only, each reply from a worker being a turn
 * of its own: written once a turn, records to a file took the event loop of a server with one
 * worker some 6% more time per request than written together (bench/http/decision-records.ts).
 */
export const RECORDS_FLUSH_MS = 10;
/** Past this many bytes pending, records are written at once rather than after RECORDS_FLUSH_MS. */
const FLUSH_BYTES = 256 * 1024;
/** Room for the records pending; one record larger than the room left is written on its own. */
const BUFFER_BYTES = 1024 * 1024;
/** UTF-8 takes at most three bytes for each UTF-16 unit of a string. */
const MAX_BYTES_PER_UNIT = 3;
/** While records cannot be written, the file is tried again at most this often. */
const RETRY_MS = 1000;

/**
 * Decision records written as JSON lines, in batches: the lines of RECORDS_FLUSH_MS go out in one
 * write (a drain and a reopen write what is pending first). A file is opened for appending,
 * created with mode 0600, reopened on request (SIGUSR1, for logrotate) and whenever it was removed
 * under the server. A write that fails loses the records pending (the evaluations were answered),
 * says so once per failure, and leaves the sink unavailable until the file can be written again.
 *
 * Records bound for a file are encoded as UTF-8 into one buffer as they come: a record is written
 * on every evaluation, and joining the lines of a batch into one string copied each record once
 * more, and the write a second time into memory allocated for it (bench/http/decision-records.ts).
 * Each record comes as its whole line, made by the thread that evaluated (with workers, a worker):
 * on the event loop a record costs this one copy into the buffer.
 */
export class DecisionRecordSink {
  private readonly buffer: Buffer | undefined;
  private used = 0;
  /** How many records the buffer holds: what a failed write loses. */
  private records = 0;
  /** The write of the records pending, due RECORDS_FLUSH_MS after the first of them. */
  private timer: ReturnType<typeof setTimeout> | undefined;
  private fd: number | undefined;
  private failing = false;
  private lastAttempt = 0;
  /** Why the last open or write failed: what records lost while the file stays closed are lost to. */
  private problem: RecordWriteProblem = { step: "open", code: "UNKNOWN", message: "the records file is not open" };

  constructor(
    readonly target: RecordTarget,
    private readonly events: RecordSinkEvents,
  ) {
    if (target.kind === "file") {
      this.buffer = Buffer.allocUnsafe(BUFFER_BYTES);
      this.tryOpen();
    }
  }

  /** Why the last open or write failed (while `available` is false, why it is). */
  get lastProblem(): RecordWriteProblem {
    return this.problem;
  }

  /** Whether records can be written now; while they cannot, the file is tried again now and then. */
  get available(): boolean {
    if (!this.failing) return true;
    if (Date.now() - this.lastAttempt >= RETRY_MS) this.tryOpen();
    return !this.failing;
  }

  /** One record: its line, newline included (see recordLine). */
  write(line: string): void {
    const buffer = this.buffer;
    // Standard output is shared with the log lines, which are batched by the turn already.
    if (buffer === undefined) {
      writeToStandardOutput(line);
      return;
    }
    const room = line.length * MAX_BYTES_PER_UNIT;
    if (room > buffer.length - this.used) this.flush();
    if (room > buffer.length) {
      this.writeBytes(Buffer.from(line), 1);
      return;
    }
    this.used += buffer.write(line, this.used);
    this.records++;
    if (this.used >= FLUSH_BYTES) this.flush();
    else this.schedule();
  }

  /** Writes every pending record now. */
  flush(): void {
    if (this.used === 0) return;
    const count = this.records;
    const length = this.used;
    this.used = 0;
    this.records = 0;
    this.writeBytes(this.buffer!.subarray(0, length), count);
  }

  /** Set by the first record pending; a write past FLUSH_BYTES leaves it be, to write what comes after. */
  private schedule(): void {
    if (this.timer !== undefined) return;
    this.timer = setTimeout(this.flushDue, RECORDS_FLUSH_MS);
  }

  private readonly flushDue = (): void => {
    this.timer = undefined;
    this.flush();
  };

  /** Writes `bytes` (`count` records) to the file, or counts them lost. */
  private writeBytes(bytes: Uint8Array, count: number): void {
    // A file removed (or rotated away without SIGUSR1) is created again rather than written where nobody reads.
    if (this.fd !== undefined && this.removed()) this.reopen();
    // While the file cannot be opened, it is tried at most once a second, not on every flush.
    if (this.fd === undefined && Date.now() - this.lastAttempt >= RETRY_MS) this.tryOpen();
    if (this.fd === undefined) {
      this.events.failed(count, this.problem);
      return;
    }
    try {
      // A short write (rare for a file) sends the rest.
      for (let at = 0; at < bytes.length; ) at += writeSync(this.fd, bytes, at, bytes.length - at);
    } catch (error) {
      this.fail(count, problemOf("write", error));
    }
  }

  /** Closes the file and opens its path again (SIGUSR1): after logrotate moved it, records go to a new file. */
  reopen(): void {
    if (this.target.kind !== "file") return;
    this.flush();
    this.closeFile();
    this.tryOpen();
  }

  /** Writes what is pending and closes the file (the drain's last step). */
  close(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.flush();
    this.closeFile();
  }

  private tryOpen(): void {
    if (this.target.kind !== "file") return;
    this.lastAttempt = Date.now();
    try {
      this.fd = openSync(this.target.path, "a", 0o600);
      if (this.failing) {
        this.failing = false;
        this.events.recovered();
      }
    } catch (error) {
      this.fd = undefined;
      this.fail(0, problemOf("open", error));
    }
  }

  private fail(records: number, problem: RecordWriteProblem): void {
    const first = !this.failing;
    this.failing = true;
    this.problem = problem;
    this.closeFile();
    if (records > 0 || first) this.events.failed(records, problem);
  }

  private removed(): boolean {
    try {
      return fstatSync(this.fd!).nlink === 0;
    } catch {
      return true;
    }
  }

  private closeFile(): void {
    if (this.fd === undefined) return;
    try {
      closeSync(this.fd);
    } catch {
      // Already gone: nothing more to write to it.
    }
    this.fd = undefined;
  }
}

function problemOf(step: RecordWriteProblem["step"], error: unknown): RecordWriteProblem {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return {
    step,
    code: typeof code === "string" ? code : "UNKNOWN",
    message: error instanceof Error ? error.message : String(error),
  };
}
