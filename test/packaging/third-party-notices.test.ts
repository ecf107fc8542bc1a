import { afterAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PackagingError } from "../../src/packaging/packaging-error.ts";
import { thirdPartyNotices } from "../../src/packaging/third-party-notices.ts";

/** The notices shipped with the npm package and the VS Code extension, from the installed packages. */
const work = mkdtempSync(join(tmpdir(), "rule-server-notices-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function installed(name: string, license?: [file: string, text: string]): string {
  const directory = join(work, "node_modules", name);
  mkdirSync(directory, { recursive: true });
  writeFileSync(join(directory, "package.json"), JSON.stringify({ name, version: "1.2.3", license: "MIT" }));
  if (license !== undefined) writeFileSync(join(directory, license[0]), license[1]);
  return directory;
}

test("each bundled package's license file, under its name, version and license", () => {
  const notices = thirdPartyNotices(
    [
      installed("left-pad", ["LICENSE", "MIT License\n\nCopyright left\n"]),
      installed("@scope/right", ["license.md", "ISC text"]),
    ],
    "engine.js",
  );
  expect(notices).toBe(
    `The following packages are bundled into engine.js.\n\n${"-".repeat(72)}\n\nleft-pad 1.2.3 (MIT)\n\nMIT License\n\nCopyright left\n\n${"-".repeat(72)}\n\n@scope/right 1.2.3 (MIT)\n\nISC text\n`,
  );
});

test("a bundled package without a license file stops the packaging, naming it", () => {
  const refused = (() => {
    try {
      thirdPartyNotices([installed("no-license")], "dist/extension.js");
    } catch (error) {
      return error;
    }
  })();
  expect(refused).toBeInstanceOf(PackagingError);
  expect(refused).toMatchObject({
    code: "LICENSE_FILE_MISSING",
    message: "no-license is bundled into dist/extension.js but has no license file to ship with it",
  });
});
