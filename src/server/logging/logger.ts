/**
 * Log lines: one JSON object per line with `time` (RFC 3339), `level` and `msg` (DECISIONS.md,
 * Logs). Neither the token nor the Authorization header is ever passed to it.
 */
import { writeToStandardOutput } from "../../standard-output/standard-output.ts";

export type LogLevel = "info" | "warn" | "error" | "fatal";
export type LogSink = (line: string) => void;

export class Logger {
  constructor(private readonly sink: LogSink = writeToStandardOutput) {}

  /**
   * `time`, `level` and `msg` come first; `fields` must not repeat them. The fields are serialized
   * as they are and joined to the head, rather than copied into a new object: every request logs.
   */
  log(level: LogLevel, msg: string, fields?: Record<string, unknown>): void {
    const head = `{"time":"${timestamp()}","level":"${level}","msg":${JSON.stringify(msg)}`;
    const members = fields === undefined ? "{}" : JSON.stringify(fields);
    this.sink(members.length > 2 ? `${head},${members.slice(1)}\n` : `${head}}\n`);
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
