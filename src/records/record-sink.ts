import { closeSync, fstatSync, openSync, writeSync } from "node:fs";
import { writeToStandardOutput } from "../server/logging/standard-output.ts";

/** Where decision records go (`RULE_SERVER_DECISION_RECORDS`). */
export type RecordTarget = { readonly kind: "stdout" } | { readonly kind: "file"; readonly path: string };

/** What the sink tells the server: a failure to write (the records lost), and when writing works again. */
export interface RecordSinkEvents {
  failed(records: number, reason: string): void;
  recovered(): void;
}

/** Past this many bytes pending, records are written at once rather than at the end of the turn. */
const FLUSH_BYTES = 256 * 1024;
/** While records cannot be written, the file is tried again at most this often. */
const RETRY_MS = 1000;

/**
 * Decision records written as JSON lines, in batches: lines of one turn of the event loop go out
 * in one write. A file is opened for appending, created with mode 0600, reopened on request
 * (SIGUSR1, for logrotate) and whenever it was removed under the server. A write that fails loses
 * the records pending (the evaluations were answered), says so once per failure, and leaves the
 * sink unavailable until the file can be written again.
 */
export class DecisionRecordSink {
  private pending: string[] = [];
  private pendingBytes = 0;
  private scheduled = false;
  private fd: number | undefined;
  private failing = false;
  private lastAttempt = 0;

  constructor(
    readonly target: RecordTarget,
    private readonly events: RecordSinkEvents,
  ) {
    if (target.kind === "file") this.tryOpen();
  }

  /** Whether records can be written now; while they cannot, the file is tried again now and then. */
  get available(): boolean {
    if (!this.failing) return true;
    if (Date.now() - this.lastAttempt >= RETRY_MS) this.tryOpen();
    return !this.failing;
  }

  write(line: string): void {
    this.pending.push(line);
    this.pendingBytes += line.length;
    if (this.pendingBytes >= FLUSH_BYTES) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /** Writes every pending record now. */
  flush(): void {
    this.scheduled = false;
    if (this.pending.length === 0) return;
    const text = this.pending.join("");
    const count = this.pending.length;
    this.pending = [];
    this.pendingBytes = 0;
    if (this.target.kind === "stdout") {
      writeToStandardOutput(text);
      return;
    }
    // A file removed (or rotated away without SIGUSR1) is created again rather than written where nobody reads.
    if (this.fd !== undefined && this.removed()) this.reopen();
    // While the file cannot be opened, it is tried at most once a second, not on every flush.
    if (this.fd === undefined && Date.now() - this.lastAttempt >= RETRY_MS) this.tryOpen();
    if (this.fd === undefined) {
      this.events.failed(count, "the records file cannot be opened");
      return;
    }
    try {
      // A string goes out without a buffer made for it; a short write (rare for a file) sends the rest as bytes.
      const written = writeSync(this.fd, text);
      if (written < Buffer.byteLength(text)) {
        const bytes = Buffer.from(text);
        for (let at = written; at < bytes.length; ) at += writeSync(this.fd, bytes, at);
      }
    } catch (error) {
      this.fail(count, `writing the records file failed: ${error instanceof Error ? error.message : String(error)}`);
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
      this.fail(0, `the records file cannot be opened: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private fail(records: number, reason: string): void {
    const first = !this.failing;
    this.failing = true;
    this.closeFile();
    if (records > 0 || first) this.events.failed(records, reason);
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
