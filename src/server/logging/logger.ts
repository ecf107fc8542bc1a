/**
 * Log lines: one JSON object per line with `time` (RFC 3339), `level` and `msg` (DECISIONS.md,
 * Logs). Neither the token nor the Authorization header is ever passed to it.
 */
import { writeToStandardOutput } from "./standard-output.ts";

export type LogLevel = "info" | "warn" | "error" | "fatal";
export type LogSink = (line: string) => void;

export class Logger {
  constructor(private readonly sink: LogSink = writeToStandardOutput) {}

  log(level: LogLevel, msg: string, fields: Record<string, unknown> = {}): void {
    this.sink(JSON.stringify({ time: timestamp(), level, msg, ...fields }) + "\n");
  }

  info(msg: string, fields?: Record<string, unknown>): void {
    this.log("info", msg, fields);
  }
  warn(msg: string, fields?: Record<string, unknown>): void {
    this.log("warn", msg, fields);
  }
  error(msg: string, fields?: Record<string, unknown>): void {
    this.log("error", msg, fields);
  }
  fatal(msg: string, fields?: Record<string, unknown>): void {
    this.log("fatal", msg, fields);
  }
}

let lastMillisecond = Number.NaN;
let lastTimestamp = "";

/** The current time in RFC 3339; formatted once per millisecond, since busy servers log many lines in one. */
function timestamp(): string {
  const now = Date.now();
  if (now !== lastMillisecond) {
    lastMillisecond = now;
    lastTimestamp = new Date(now).toISOString();
  }
  return lastTimestamp;
}
