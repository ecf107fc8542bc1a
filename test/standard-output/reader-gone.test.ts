import { describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { closeSync, constants, mkdtempSync, openSync, readSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { rulesDirectory } from "../support/rules-directory.ts";
import { MAIN, PROJECT_ROOT } from "../support/run-cli.ts";
import { serverEnvironment, TOKEN } from "../support/server-process.ts";
import { ALLOWED_ORDER } from "../support/allowed-order.ts";

/**
 * A server whose standard output nobody reads any more (the pipe's reader exited: a log shipper
 * that crashed, `rule-server | head`) loses its log lines, never its requests or its life: every
 * line written after that fails with EPIPE.
 */
async function servedWithReaderGone(extra: Record<string, string>, check: (url: string) => Promise<void>) {
  const rules = rulesDirectory();
  const scratch = mkdtempSync(join(tmpdir(), "rule-server-stdout-"));
  const fifo = join(scratch, "stdout");
  execFileSync("mkfifo", [fifo]);
  // The reading end opens first (without waiting for a writer), so the writing end opens at once.
  const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
  const writer = openSync(fifo, constants.O_WRONLY);
  const child = Bun.spawn([process.execPath, MAIN], {
    cwd: PROJECT_ROOT,
    env: serverEnvironment(rules.path, extra),
    stdin: "ignore",
    stdout: writer,
    stderr: "pipe",
  });
  closeSync(writer);
  let readerOpen = true;
  try {
    const port = await listeningPort(reader);
    closeSync(reader);
    readerOpen = false;
    await check(`http://127.0.0.1:${port}`);
    expect(child.exitCode).toBeNull();
    child.kill("SIGTERM");
    expect(await child.exited).toBe(0);
  } finally {
    if (readerOpen) closeSync(reader);
    if (child.exitCode === null) child.kill("SIGKILL");
    await child.exited;
    rmSync(scratch, { recursive: true, force: true });
    rules.remove();
  }
}

/** Reads the pipe until the `listening` line (the last process's, when there are several). */
async function listeningPort(reader: number): Promise<number> {
  const buffer = Buffer.alloc(65536);
  let text = "";
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    let read = 0;
    try {
      read = readSync(reader, buffer);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EAGAIN") throw error;
    }
    text += buffer.toString("utf8", 0, read);
    const listening = text
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as { msg?: string; port?: number })
      .find((line) => line.msg === "listening");
    if (listening?.port) return listening.port;
    await Bun.sleep(20);
  }
  throw new Error(`no listening line in:\n${text}`);
}

async function answersEvaluations(url: string): Promise<void> {
  for (let round = 0; round < 40; round += 1) {
    const response = await fetch(`${url}/evaluations`, {
      method: "POST",
      headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" },
      body: JSON.stringify(ALLOWED_ORDER),
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { decision: string }).decision).toBe("allow");
    // Lines of one turn go out in one write: a pause lets each request's line meet the closed pipe.
    await Bun.sleep(5);
  }
  expect((await fetch(`${url}/healthz`)).status).toBe(200);
}

describe("standard output whose reader is gone", () => {
  test("a server keeps answering, logging into the closed pipe, and drains on SIGTERM", async () => {
    await servedWithReaderGone({}, answersEvaluations);
  });

  test("with several processes, the supervisor's relay of their lines does not stop them either", async () => {
    await servedWithReaderGone({ RULE_SERVER_PROCESSES: "2" }, answersEvaluations);
  }, 30_000);
});
