import { afterAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PackagingError } from "../../src/packaging/packaging-error.ts";
import { entriesReaching, parseLdd, sharedLibraries } from "../../src/packaging/shared-libraries.ts";

/** Which libraries an executable loads, and the links and files another root needs to reach them. */
const root = mkdtempSync(join(tmpdir(), "rule-server-root-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return error instanceof PackagingError ? error.code : "not a PackagingError";
  }
  return undefined;
}

test("ldd's lines give the libraries and the loader, not the vDSO; a missing library is an error", () => {
  const output = [
    "\tlinux-vdso.so.1 (0x00007ffd)",
    "\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f39)",
    "\t/lib64/ld-linux-x86-64.so.2 (0x00007f39)",
    "\tlibm.so.6 => /lib/x86_64-linux-gnu/libm.so.6 (0x00007f39)",
  ].join("\n");
  expect(parseLdd(output)).toEqual([
    "/lib/x86_64-linux-gnu/libc.so.6",
    "/lib64/ld-linux-x86-64.so.2",
    "/lib/x86_64-linux-gnu/libm.so.6",
  ]);
  expect(codeOf(() => parseLdd("\tlibc.musl-x86_64.so.1 => not found\n"))).toBe("LIBRARY_NOT_FOUND");
});

test("this machine's ldd names the C library and the loader of a dynamically linked program", () => {
  const libraries = sharedLibraries("/bin/sh");
  expect(libraries.some((path) => /\/libc\.so\.6$/.test(path))).toBe(true);
  expect(libraries.some((path) => /\/ld-linux[^/]*\.so\.\d$/.test(path))).toBe(true);
});

test("every link on the way is kept as a link, relative and absolute, and the file it ends at", () => {
  // Debian's merged /usr: /lib -> usr/lib, and a loader link that points back through it.
  mkdirSync(join(root, "usr/lib/gnu"), { recursive: true });
  mkdirSync(join(root, "usr/lib64"), { recursive: true });
  writeFileSync(join(root, "usr/lib/gnu/libc.so.6"), "libc", { mode: 0o755 });
  writeFileSync(join(root, "usr/lib/gnu/ld.so.2"), "loader", { mode: 0o755 });
  symlinkSync("usr/lib", join(root, "lib"));
  symlinkSync("usr/lib64", join(root, "lib64"));
  symlinkSync("/lib/gnu/ld.so.2", join(root, "usr/lib64/ld.so.2"));
  const summary = (path: string): string[] =>
    entriesReaching(path, root).map((entry) =>
      entry.kind === "symlink"
        ? `${entry.path} -> ${entry.target}`
        : entry.kind === "file"
          ? `${entry.path} ${entry.mode.toString(8)} ${Buffer.from(entry.data)}`
          : entry.path,
    );
  expect(summary("/lib/gnu/libc.so.6")).toEqual(["lib -> usr/lib", "usr/lib/gnu/libc.so.6 755 libc"]);
  expect(summary("/lib64/ld.so.2")).toEqual([
    "lib64 -> usr/lib64",
    "usr/lib64/ld.so.2 -> /lib/gnu/ld.so.2",
    "lib -> usr/lib",
    "usr/lib/gnu/ld.so.2 755 loader",
  ]);
});

test("a loop of links is an error with a code", () => {
  symlinkSync("loop-b", join(root, "loop-a"));
  symlinkSync("loop-a", join(root, "loop-b"));
  expect(codeOf(() => entriesReaching("/loop-a", root))).toBe("SYMLINK_LOOP");
});
