import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Where Debian's chromium package puts the browser (the Makefile installs it when missing). */
export const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";

export interface ChromiumProcess {
  /** The browser's profile directory (where it writes DevToolsActivePort), removed by close(). */
  readonly profile: string;
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
export function openInChromium(
  url: string,
  extraFlags: readonly string[] = [],
  stdout: "ignore" | "pipe" = "ignore",
): ChromiumProcess & { readonly stdout?: ReadableStream<Uint8Array> } {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `Chromium is not installed at ${CHROMIUM}: run make test, which installs Debian's chromium package`,
    );
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
    { stdout, stderr: "pipe" },
  );
  let output = "";
  void (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of child.stderr) output += decoder.decode(chunk, { stream: true });
  })();
  return {
    ...(child.stdout instanceof ReadableStream ? { stdout: child.stdout } : {}),
    profile,
    output: () => output,
    exited: child.exited,
    close: async () => {
      if (child.exitCode === null) child.kill("SIGKILL");
      await child.exited;
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * The page's DOM once its scripts, and the requests they make, have settled: Chromium runs the page
 * on virtual time for up to the budget and prints the DOM.
 */
export async function renderedDom(url: string, budgetMs = 10_000): Promise<string> {
  const chromium = openInChromium(url, ["--dump-dom", `--virtual-time-budget=${budgetMs}`], "pipe");
  try {
    const dom = await Promise.race([
      new Response(chromium.stdout).text(),
      Bun.sleep(budgetMs + 30_000).then(() => undefined),
    ]);
    if (dom === undefined || dom === "") throw new Error(`Chromium printed no DOM for ${url}:\n${chromium.output()}`);
    return dom;
  } finally {
    await chromium.close();
  }
}
