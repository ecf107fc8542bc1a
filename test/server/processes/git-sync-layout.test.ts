import { expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { rulesDirectory } from "../../support/rules-directory.ts";
import { serverEnvironment, startServer, TOKEN } from "../../support/server-process.ts";
import {
  allGone,
  alive,
  readinessOfEach,
  requestOnNewConnection,
  servingPids,
  supervisorPid,
  TWO_PROCESSES,
} from "../../support/server-processes.ts";
import { temporaryDirectory } from "../../support/temp-directory.ts";

/**
 * The layout git-sync (v4) publishes in its volume (deploy/kubernetes/rule-server-git-sync.yaml):
 * each commit checked out in `.worktrees/<commit>`, and the link RULES_DIR names swapped to the new
 * one in a single rename, the old checkout then removed. RULES_REFRESH=interval picks each swap up
 * once; with two serving processes the supervisor alone checks the files, and both serve the result.
 */
const interval = { RULES_REFRESH: "interval", RULES_REFRESH_INTERVAL: "1s" };
const order130 = {
  ruleset: "shop.orders.order",
  entity: "Order",
  operation: "create",
  data: { quantity: 130, unitPrice: 1, customer: { email: "a@b.c" } },
};

test("a git-sync layout reloads once per published commit, in every serving process; a broken commit is refused and the next one loads", async () => {
  const volume = temporaryDirectory({});
  const source = rulesDirectory();
  let current: string | undefined;
  /** Checks out a "commit" whose shop maximum is `maxQuantity`, and publishes it as git-sync does. */
  const publish = (commit: string, maxQuantity: number, extra: Record<string, string> = {}): void => {
    const worktree = join(volume.path, ".worktrees", commit);
    mkdirSync(worktree, { recursive: true });
    for (const file of readdirSync(source.path)) {
      const text = readFileSync(join(source.path, file), "utf8");
      writeFileSync(
        join(worktree, file),
        file === "shop-order.ruleset.yaml" ? text.replace("default: 100", `default: ${maxQuantity}`) : text,
      );
    }
    for (const [name, text] of Object.entries(extra)) writeFileSync(join(worktree, name), text);
    // A worktree's .git is a file naming the repository; dot entries are not rules.
    writeFileSync(join(worktree, ".git"), "gitdir: ../../.git/worktrees/x\n");
    symlinkSync(join(".worktrees", commit), join(volume.path, "tmp-link"));
    renameSync(join(volume.path, "tmp-link"), join(volume.path, "rules"));
    if (current !== undefined) rmSync(join(volume.path, ".worktrees", current), { recursive: true, force: true });
    current = commit;
  };
  const decisionsOfBoth = async (pids: readonly number[]): Promise<Set<string>> => {
    const decisions = new Set<string>();
    const answered = new Set<number>();
    for (let attempt = 0; attempt < 200 && answered.size < pids.length; attempt++) {
      const answer = await requestOnNewConnection(
        server.port,
        "POST",
        "/evaluations",
        { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json", "X-Request-Id": `decide-${attempt}` },
        JSON.stringify(order130),
      );
      decisions.add((JSON.parse(answer.text) as { decision: string }).decision);
      const line = await server.waitForLog((entry) => entry.requestId === `decide-${attempt}`);
      answered.add(line.pid as number);
    }
    expect(answered.size).toBe(pids.length);
    return decisions;
  };

  publish("a1b2c3", 100);
  const server = await startServer(serverEnvironment(join(volume.path, "rules"), { ...interval, ...TWO_PROCESSES }));
  const reloads = (): Record<string, unknown>[] => server.logs().filter((line) => line.msg === "rules reloaded");
  try {
    await server.waitForLog(() => servingPids(server).length === 2);
    const serving = servingPids(server);
    expect(await decisionsOfBoth(serving)).toEqual(new Set(["deny"]));

    publish("d4e5f6", 140);
    await server.waitForLog((line) => line.msg === "rules reloaded" && line.trigger === "interval");
    await Bun.sleep(2500);
    expect(reloads().length).toBe(1);
    expect(reloads()[0]!.pid).toBe(supervisorPid(server));
    expect(await decisionsOfBoth(serving)).toEqual(new Set(["allow"]));
    const loadedAt = new Set(
      [...(await readinessOfEach(server.port, serving)).values()].map((answer) => answer.loadedAt),
    );
    expect(loadedAt.size).toBe(1);

    publish("0badc0", 100, { "broken.ruleset.yaml": "ruleCascade: '1.0.0'\n" });
    await server.waitForLog((line) => String(line.msg).startsWith("reload refused"));
    expect(await decisionsOfBoth(serving)).toEqual(new Set(["allow"]));

    publish("fe7a11", 100);
    await server.waitForLog(() => reloads().length === 2);
    expect(await decisionsOfBoth(serving)).toEqual(new Set(["deny"]));
  } finally {
    const pids = [supervisorPid(server), ...servingPids(server)];
    await server.kill();
    if (!(await allGone(pids))) for (const pid of pids.filter(alive)) process.kill(pid, "SIGKILL");
    volume.remove();
    source.remove();
  }
}, 30000);
