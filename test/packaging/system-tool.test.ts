import { afterAll, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { missingTool, requireTool, systemPath, systemTool } from "../support/system-tool.ts";

/** Tools in sbin directories are found whatever PATH holds. */
const directory = mkdtempSync(join(tmpdir(), "rule-server-tools-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

test("PATH first, then the system directories PATH lacks, each once", () => {
  expect(systemPath("/usr/local/bin:/usr/bin:/bin")).toBe(
    "/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin",
  );
  expect(systemPath("/usr/sbin:/usr/bin")).toBe("/usr/sbin:/usr/bin:/usr/local/sbin:/sbin");
  expect(systemPath("")).toBe("/usr/local/sbin:/usr/sbin:/sbin");
});

test("a tool in PATH is found there; one in no directory is null", () => {
  const tool = join(directory, "rule-server-test-tool");
  writeFileSync(tool, "#!/bin/sh\n");
  chmodSync(tool, 0o755);
  expect(systemTool("rule-server-test-tool", `/nonexistent:${directory}`)).toBe(tool);
  expect(systemTool("rule-server-test-tool", "/usr/bin:/bin")).toBeNull();
});

test("chroot, an sbin tool, is found with a PATH that holds no tool", () => {
  expect(systemTool("chroot", "/nonexistent")).toMatch(/^(\/usr|\/usr\/local)?\/sbin\/chroot$/);
});

test("a missing tool is an error naming its package, and `make podman` for podman's", () => {
  expect(() => requireTool("rule-server-no-such-tool")).toThrow(
    "rule-server-no-such-tool was not found in PATH nor in /usr/local/sbin, /usr/sbin, /sbin: install Debian's rule-server-no-such-tool package (`sudo apt-get install rule-server-no-such-tool`)",
  );
  expect(missingTool("runc")).toBe(
    "runc was not found in PATH nor in /usr/local/sbin, /usr/sbin, /sbin: install Debian's runc package (`sudo apt-get install runc` or `make podman`)",
  );
});
