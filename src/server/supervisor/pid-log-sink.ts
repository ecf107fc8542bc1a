import type { LogSink } from "../logging/logger.ts";

/**
 * Log lines of one process of several: the supervisor's and every serving process's lines go out
 * in one stream, so each says which process wrote it. `pid` is added last, by rewriting the line's
 * closing brace, which costs one string join per line.
 */
export function withPid(sink: LogSink, pid: number = process.pid): LogSink {
  const ending = `,"pid":${pid}}\n`;
  return (line) => sink(line.endsWith("}\n") ? line.slice(0, -2) + ending : line);
}
