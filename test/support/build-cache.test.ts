import { afterEach, beforeEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cachedBuild, STALE_TREE_MS, TREE_DIRECTORY_PREFIX } from "./build-cache.ts";
import { userCacheRoot } from "./build-release.ts";
import { temporaryDirectory } from "./temp-directory.ts";

/**
 * The release build is made once per source tree however many test files and processes ask for it,
 * appears whole or not at all, and a failed or abandoned build does not stand in the way of the next.
 */
let cache: { path: string; remove: () => void };
beforeEach(() => {
  cache = temporaryDirectory({});
});
afterEach(() => cache.remove());

/** A build that writes one file and counts its runs in `made`. */
function countingBuild(treeHash: string, made: string[]) {
  return {
    cacheRoot: cache.path,
    treeHash,
    name: "linux-x64",
    make: (out: string) => {
      made.push(out);
      writeFileSync(join(out, "rule-server"), treeHash);
    },
    sourcesUnchanged: () => true,
  };
}

test("the same tree is built once and the second caller gets the first one's directory", () => {
  const made: string[] = [];
  const first = cachedBuild(countingBuild("tree-a", made));
  const second = cachedBuild(countingBuild("tree-a", made));
  expect(second).toBe(first);
  expect(made).toHaveLength(1);
  expect(first).toBe(join(cache.path, `${TREE_DIRECTORY_PREFIX}tree-a`, "linux-x64"));
  expect(readFileSync(join(first, "rule-server"), "utf8")).toBe("tree-a");
  // Nothing but the build: no lock, no partial directory.
  expect(readdirSync(join(first, ".."))).toEqual(["linux-x64"]);
});

test("a changed tree is built anew, and another target of the same tree apart", () => {
  const made: string[] = [];
  const a = cachedBuild(countingBuild("tree-a", made));
  const b = cachedBuild(countingBuild("tree-b", made));
  const image = cachedBuild({ ...countingBuild("tree-a", made), name: "image" });
  expect(new Set([a, b, image]).size).toBe(3);
  expect(made).toHaveLength(3);
  expect(readFileSync(join(b, "rule-server"), "utf8")).toBe("tree-b");
});

test("a failed build throws and leaves nothing behind, so the next caller builds", () => {
  expect(() =>
    cachedBuild({
      ...countingBuild("tree-a", []),
      make: (out) => {
        writeFileSync(join(out, "half"), "");
        throw new Error("the build failed");
      },
    }),
  ).toThrow("the build failed");
  expect(readdirSync(join(cache.path, `${TREE_DIRECTORY_PREFIX}tree-a`))).toEqual([]);
  const made: string[] = [];
  expect(readdirSync(cachedBuild(countingBuild("tree-a", made)))).toEqual(["rule-server"]);
  expect(made).toHaveLength(1);
});

test("a build made while the sources changed goes to its caller only: the next caller builds anew", () => {
  const made: string[] = [];
  const during = cachedBuild({ ...countingBuild("tree-a", made), sourcesUnchanged: () => false });
  expect(readFileSync(join(during, "rule-server"), "utf8")).toBe("tree-a");
  const after = cachedBuild(countingBuild("tree-a", made));
  expect(after).not.toBe(during);
  expect(made).toHaveLength(2);
  expect(existsSync(during)).toBe(true);
});

test("the lock of a process that died is taken over", () => {
  const dead = Bun.spawnSync(["sh", "-c", "echo $$"]).stdout.toString().trim();
  const lock = join(cache.path, `${TREE_DIRECTORY_PREFIX}tree-a`, "linux-x64.lock");
  mkdirSync(lock, { recursive: true });
  writeFileSync(join(lock, "pid"), dead);
  const made: string[] = [];
  expect(existsSync(join(cachedBuild(countingBuild("tree-a", made)), "rule-server"))).toBe(true);
  expect(made).toHaveLength(1);
  expect(existsSync(lock)).toBe(false);
});

test("of two builders (one took over a lock it thought abandoned), the first build stands and the second is discarded", () => {
  const done = join(cache.path, `${TREE_DIRECTORY_PREFIX}tree-a`, "linux-x64");
  const result = cachedBuild({
    ...countingBuild("tree-a", []),
    make: (out) => {
      // The other builder finishes while this one is still at work.
      mkdirSync(done);
      writeFileSync(join(done, "rule-server"), "the other builder's");
      writeFileSync(join(out, "rule-server"), "this builder's");
    },
  });
  expect(result).toBe(done);
  expect(readFileSync(join(done, "rule-server"), "utf8")).toBe("the other builder's");
  expect(readdirSync(join(done, ".."))).toEqual(["linux-x64"]);
});

test("processes asking at once wait for one build instead of making their own", async () => {
  const script = join(cache.path, "ask.ts");
  const log = join(cache.path, "builds.log");
  writeFileSync(
    script,
    `import { appendFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cachedBuild } from ${JSON.stringify(join(import.meta.dir, "build-cache.ts"))};
const out = cachedBuild({
  cacheRoot: ${JSON.stringify(cache.path)},
  treeHash: "tree-a",
  name: "linux-x64",
  make: (out) => {
    appendFileSync(${JSON.stringify(log)}, out + "\\n");
    Bun.sleepSync(1000);
    writeFileSync(join(out, "rule-server"), "built");
  },
  sourcesUnchanged: () => true,
});
process.stdout.write(out);
`,
  );
  const askers = [1, 2, 3].map(() => Bun.spawn([process.execPath, script], { stdout: "pipe", stderr: "inherit" }));
  const answers = await Promise.all(askers.map((asker) => new Response(asker.stdout).text()));
  expect(await Promise.all(askers.map((asker) => asker.exited))).toEqual([0, 0, 0]);
  expect(new Set(answers)).toEqual(new Set([join(cache.path, `${TREE_DIRECTORY_PREFIX}tree-a`, "linux-x64")]));
  expect(readFileSync(log, "utf8").trim().split("\n")).toHaveLength(1);
  expect(readFileSync(join(answers[0]!, "rule-server"), "utf8")).toBe("built");
}, 30000);

test("a new tree removes other trees' builds unused for an hour, and spares recent ones and ones being built", () => {
  const tree = (name: string, ageMs: number, files: string[] = []): string => {
    const path = join(cache.path, `${TREE_DIRECTORY_PREFIX}${name}`);
    for (const file of files) mkdirSync(join(path, file), { recursive: true });
    mkdirSync(path, { recursive: true });
    const then = new Date(Date.now() - ageMs);
    utimesSync(path, then, then);
    return path;
  };
  const old = tree("old", STALE_TREE_MS + 60_000, ["linux-x64"]);
  const recent = tree("recent", STALE_TREE_MS - 60_000, ["linux-x64"]);
  const building = tree("building", STALE_TREE_MS + 60_000, ["image.lock"]);
  const unrelated = join(cache.path, "rule-server-dist-old");
  mkdirSync(unrelated);
  utimesSync(unrelated, new Date(0), new Date(0));
  cachedBuild(countingBuild("new", []));
  expect(existsSync(old)).toBe(false);
  expect(existsSync(recent)).toBe(true);
  expect(existsSync(building)).toBe(true);
  expect(existsSync(unrelated)).toBe(true);
});

test("each user's builds are cached in a directory only that user owns and can enter", () => {
  const root = userCacheRoot();
  const stat = statSync(root);
  expect(stat.uid).toBe(process.getuid!());
  expect(stat.mode & 0o777).toBe(0o700);
  expect(root).toContain(`rule-server-builds-${process.getuid!()}`);
});
