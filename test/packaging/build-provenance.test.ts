import { expect, test } from "bun:test";
import { buildProvenance } from "../../src/packaging/build-provenance.ts";
import { PackagingError } from "../../src/packaging/packaging-error.ts";
import { PROJECT_ROOT } from "../support/run-cli.ts";

/** The time and commit a build stamps come from the sources, never from the clock. */
const git = (...args: string[]): string => Bun.spawnSync(["git", ...args], { cwd: PROJECT_ROOT }).stdout.toString().trim();

test("without SOURCE_DATE_EPOCH, the last commit's time and the commit", () => {
  expect(buildProvenance(PROJECT_ROOT, {})).toEqual({ sourceDate: Number(git("log", "-1", "--format=%ct")), revision: git("rev-parse", "HEAD") });
});

test("SOURCE_DATE_EPOCH wins when set, and must be whole seconds", () => {
  expect(buildProvenance(PROJECT_ROOT, { SOURCE_DATE_EPOCH: "1700000000" }).sourceDate).toBe(1700000000);
  expect(() => buildProvenance(PROJECT_ROOT, { SOURCE_DATE_EPOCH: "yesterday" })).toThrow(PackagingError);
});

test("outside a git checkout: time 0 and no commit, still the same every time", () => {
  expect(buildProvenance("/", {})).toEqual({ sourceDate: 0, revision: undefined });
});
