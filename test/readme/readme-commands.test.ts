import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { linkTargets, runnableBlocks } from "../support/markdown-blocks.ts";
import { PROJECT_ROOT } from "../support/run-cli.ts";

/**
 * The README cannot drift from the program: every block it marks `runnable` is run from the
 * project root, the way a newcomer pastes it, against a server started with `make run`; a block
 * marked `output` after it is what the command must print. The only change made to a command is
 * the port: the server listens on a free one instead of 8080.
 */
const README = readFileSync(join(PROJECT_ROOT, "README.md"), "utf8");

let server: Bun.Subprocess<"ignore", "pipe", "pipe"> | undefined;
let port = 0;
let token = "";

async function freePort(): Promise<number> {
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const chosen = probe.port;
  probe.stop(true);
  return chosen;
}

beforeAll(async () => {
  port = await freePort();
  // setsid: `make run` execs the server under make, so the whole group is stopped at the end.
  server = Bun.spawn(["setsid", "make", "--no-print-directory", "run"], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, PORT: String(port), RULE_SERVER_TOKEN: "" },
    stdout: "pipe",
    stderr: "pipe",
  });
  let output = "";
  const decoder = new TextDecoder();
  // Read on for as long as the server runs: a closed pipe would end it at its next log line.
  const reading = (async () => {
    for await (const chunk of server!.stdout) output += decoder.decode(chunk, { stream: true });
  })();
  const deadline = Date.now() + 60_000;
  while (!output.includes('"msg":"listening"') && Date.now() < deadline && server.exitCode === null)
    await Bun.sleep(50);
  void reading;
  const exported = /^export TOKEN=(\S+)$/m.exec(output);
  if (!exported || !output.includes('"msg":"listening"'))
    throw new Error(`make run did not start as the README says:\n${output}${await new Response(server.stderr).text()}`);
  token = exported[1]!;
});

afterAll(async () => {
  if (server) {
    if (server.exitCode === null) process.kill(-server.pid, "SIGKILL");
    await server.exited;
  }
});

async function runBlock(text: string): Promise<{ status: number; stdout: string; stderr: string }> {
  const script = text.replaceAll("localhost:8080", `localhost:${port}`);
  const child = Bun.spawn(["bash", "-e", "-o", "pipefail", "-c", script], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, TOKEN: token },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, status] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { status, stdout, stderr };
}

describe("README", () => {
  test("opens with what it is, then the two commands and nothing else", () => {
    const blocks = README.split("```");
    const intro = blocks[0]!
      .trim()
      .split("\n")
      .slice(1)
      .filter((line) => line.trim() !== "");
    expect(intro.length).toBe(3);
    expect(
      blocks[1]!
        .replace(/^sh\n/, "")
        .trim()
        .split("\n")
        .map((line) => line.split("#")[0]!.trim()),
    ).toEqual(["make run", "make test"]);
  });

  test("make run prints the token as a line a person pastes", () => {
    expect(token).toMatch(/^dev-[0-9a-f]{24}$/);
  });

  const runnable = runnableBlocks(README);
  test("marks the curl evaluation and the commands as runnable", () => {
    expect(
      runnable.some(({ block, expected }) => block.text.includes("/evaluations") && expected?.language === "json"),
    ).toBe(true);
    expect(runnable.length).toBeGreaterThanOrEqual(4);
  });

  test("no runnable block writes to a fixed name under /tmp, where another user's file would be in the way", () => {
    const fixedTmp = runnable
      .filter(({ block }) => /(^|[\s"'=>])\/tmp\//m.test(block.text))
      .map(({ block }) => block.line);
    expect(fixedTmp).toEqual([]);
  });

  for (const { block, expected } of runnable) {
    test(`the runnable block at line ${block.line} works as written`, async () => {
      const run = await runBlock(block.text);
      if (run.status !== 0) throw new Error(`exit ${run.status}\n${run.stdout}\n${run.stderr}`);
      // curl -s exits 0 on an error status; the server's errors are problem documents.
      expect(run.stdout).not.toContain('"type":"about:blank"');
      if (expected?.language === "json") expect(JSON.parse(run.stdout)).toEqual(JSON.parse(expected.text));
      else if (expected) expect(run.stdout.trimEnd()).toBe(expected.text.trimEnd());
    });
  }
});

describe("links in the repository's Markdown", () => {
  const markdownFiles = [
    "README.md",
    ...["rules", "docs", "deploy", "bench"].flatMap((folder) => listMarkdown(folder)),
  ];
  for (const file of markdownFiles) {
    test(`${file}: every link resolves inside a clone or is a public address`, () => {
      const targets = linkTargets(readFileSync(join(PROJECT_ROOT, file), "utf8"));
      for (const target of targets) {
        if (/^https:\/\//.test(target)) {
          expect(target).not.toMatch(/localhost|127\.0\.0\.1/);
          continue;
        }
        const path = resolve(PROJECT_ROOT, dirname(file), target.split("#")[0]!);
        expect({ target, inside: !relative(PROJECT_ROOT, path).startsWith("..") }).toEqual({ target, inside: true });
        expect({ target, exists: existsSync(path) }).toEqual({ target, exists: true });
      }
    });
  }
});

function listMarkdown(folder: string): string[] {
  const directory = join(PROJECT_ROOT, folder);
  if (!existsSync(directory)) return [];
  return readdirSync(directory, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".md"))
    .map((name) => join(folder, name));
}
