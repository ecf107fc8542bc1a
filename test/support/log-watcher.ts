/** Reads a process's standard output as it comes, so a test can wait until a log line shows. */
export function logWatcher(
  stream: ReadableStream<Uint8Array>,
  timeoutMs = 20000,
): { log: () => string; waitFor: (pattern: RegExp) => Promise<void> } {
  const reader = stream.getReader();
  let log = "";
  return {
    log: () => log,
    waitFor: async (pattern) => {
      const deadline = Date.now() + timeoutMs;
      while (!pattern.test(log)) {
        if (Date.now() > deadline) throw new Error(`no ${pattern} in:\n${log}`);
        const { value, done } = await reader.read();
        if (done) throw new Error(`the process exited:\n${log}`);
        log += new TextDecoder().decode(value);
      }
    },
  };
}
