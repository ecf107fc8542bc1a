import { beforeAll, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import packageJson from "../../package.json" with { type: "json" };
import { releaseBuild } from "../support/build-release.ts";

/** `make build` ships the VS Code extension beside the release archives, and SHA256SUMS vouches for it too. */
const VSIX = `rule-server-${packageJson.version}.vsix`;
let dist: string;

beforeAll(() => {
  dist = releaseBuild("vsix");
}, 60000);

test("build.ts vsix writes the .vsix and a SHA256SUMS naming it that sha256sum accepts", () => {
  expect(readdirSync(dist).sort()).toEqual(["SHA256SUMS", VSIX]);
  const check = Bun.spawnSync(["sha256sum", "--check", "SHA256SUMS"], { cwd: dist });
  expect(check.stdout.toString()).toBe(`${VSIX}: OK\n`);
  expect(check.exitCode).toBe(0);
});
