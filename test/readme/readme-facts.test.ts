import { afterAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { buildBrowserModule, buildRequest } from "../../build.ts";
import { ENVIRONMENT_VARIABLES } from "../../src/server/config/read-environment.ts";
import { PROJECT_ROOT } from "../support/run-cli.ts";
import { temporaryDirectory } from "../support/temp-directory.ts";

/**
 * Facts the README states about the program, held against the program so that they cannot go
 * stale: the browser module's size, the server's environment variables, the build's platforms.
 */
const README = readFileSync(join(PROJECT_ROOT, "README.md"), "utf8");
const dist = temporaryDirectory({});
afterAll(() => dist.remove());

/** The README's section under a `## ` heading, up to the next one. */
function section(heading: string): string {
  const start = README.indexOf(`\n## ${heading}\n`);
  expect(start, heading).toBeGreaterThan(-1);
  const end = README.indexOf("\n## ", start + 1);
  return README.slice(start, end === -1 ? undefined : end);
}

test("the browser module's size, and its gzip size, are what the build writes, within 5%", async () => {
  const stated = /It is about (\d+(?:\.\d+)?) KiB, (\d+(?:\.\d+)?) KiB gzip/.exec(section("Evaluating in the browser"));
  expect(stated).not.toBeNull();
  const built = await buildBrowserModule(dist.path);
  const kib = (bytes: number): number => bytes / 1024;
  expect(Math.abs(Number(stated![1]) - kib(built.bytes)) / kib(built.bytes)).toBeLessThanOrEqual(0.05);
  expect(Math.abs(Number(stated![2]) - kib(built.gzipBytes)) / kib(built.gzipBytes)).toBeLessThanOrEqual(0.05);
}, 60000);

test("the table of environment variables has a row for every variable the server reads, and no other", () => {
  const rows = section("Running the server")
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .map((line) => line.split("|")[1]!);
  const named = rows.flatMap((cell) => [...cell.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((match) => match[1]!));
  expect([...named].sort()).toEqual([...ENVIRONMENT_VARIABLES].sort());
});

test("the platforms `make build` builds are the ones listed, and building one of them is documented", () => {
  const archives = section("Release archives");
  const listed = /for each platform \(([^)]+)\)/.exec(archives.replace(/\s+/g, " "));
  expect(listed).not.toBeNull();
  const platforms = listed![1]!.split(",").map((name) => name.trim());
  expect(platforms).toEqual([...buildRequest([]).targets]);
  expect(archives).toContain("`node_modules/.bin/bun build.ts linux-x64`");
  for (const platform of platforms) expect<readonly string[]>(buildRequest([platform]).targets).toEqual([platform]);
});
