import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Where Debian's chromium package puts the browser (the Makefile installs it when missing). */
export const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";

export interface ChromiumProcess {
  /** Everything the browser wrote to standard error, for failure messages. */
  readonly output: () => string;
  readonly exited: Promise<number>;
  close(): Promise<void>;
}

/**
 * A real headless Chromium opening one page. It runs as root here, so without its sandbox; the
 * background-networking flags keep it from reaching for hosts this machine cannot reach. Throws
 * (never skips) when the browser is missing.
 */
export function openInChromium(url: string, extraFlags: readonly string[] = []): ChromiumProcess {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is not installed at ${CHROMIUM}: run make test, which installs Debian's chromium package`);
  const profile = mkdtempSync(join(tmpdir(), "rule-server-chromium-"));
  const child = Bun.spawn(
    [
      CHROMIUM,
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-dev-shm-usage",
      "--disable-quic",
      "--no-first-run",
      "--no-default-browser-check",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-extensions",
      `--user-data-dir=${profile}`,
      ...extraFlags,
      url,
    ],
    { stdout: "ignore", stderr: "pipe" },
  );
  let output = "";
  void (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of child.stderr) output += decoder.decode(chunk, { stream: true });
  })();
  return {
    output: () => output,
    exited: child.exited,
    close: async () => {
      if (child.exitCode === null) child.kill("SIGKILL");
      await child.exited;
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
