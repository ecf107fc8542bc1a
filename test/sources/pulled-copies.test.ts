import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PulledCopies } from "../../src/sources/pulled-copies.ts";
import { SourceError } from "../../src/sources/source-error.ts";

const A = `sha256:${"a".repeat(64)}`;
const B = `sha256:${"b".repeat(64)}`;
const file = (name: string, text: string) => ({ name, bytes: new TextEncoder().encode(text) });

let scratch: string;
afterEach(() => rmSync(scratch, { recursive: true, force: true }));
const cacheDirectory = (): string => {
  scratch = mkdtempSync(join(tmpdir(), "pulled-copies-"));
  return join(scratch, "cache");
};

describe("PulledCopies", () => {
  test("a staged release is a directory of its files, named for its digest, and nothing hidden is left", () => {
    const copies = PulledCopies.open(cacheDirectory());
    const directory = copies.stage(A, [file("a.bundle.json", "{}"), file("a.bundle.json.sig", "jws")]);
    expect(readdirSync(directory).sort()).toEqual(["a.bundle.json", "a.bundle.json.sig"]);
    expect(readFileSync(join(directory, "a.bundle.json.sig"), "utf8")).toBe("jws");
    expect(readdirSync(copies.directory)).toEqual([`sha256-${"a".repeat(64)}`]);
  });

  test("only an accepted release is current, and accepting one removes the others", () => {
    const copies = PulledCopies.open(cacheDirectory());
    copies.stage(A, [file("a.bundle.json", "1")]);
    expect(copies.current()).toBeUndefined();
    copies.accept(A, "oci://127.0.0.1:5000/rules:v1");
    const b = copies.stage(B, [file("a.bundle.json", "2")]);
    expect(copies.current()?.digest).toBe(A);
    copies.accept(B, "oci://127.0.0.1:5000/rules:v1");
    expect(copies.current()).toEqual({ digest: B, ref: "oci://127.0.0.1:5000/rules:v1", directory: b });
    expect(readdirSync(copies.directory).sort()).toEqual(["current.json", `sha256-${"b".repeat(64)}`]);
  });

  test("a discarded release is removed, but never the current one", () => {
    const copies = PulledCopies.open(cacheDirectory());
    const a = copies.stage(A, [file("a.bundle.json", "1")]);
    copies.accept(A, "ref");
    const b = copies.stage(B, [file("a.bundle.json", "2")]);
    copies.discard(B);
    copies.discard(A);
    expect(existsSync(b)).toBe(false);
    expect(existsSync(a)).toBe(true);
  });

  test("a cache directory outlives the copies; the last good release is found again by a new start", () => {
    const directory = cacheDirectory();
    const first = PulledCopies.open(directory);
    first.stage(A, [file("a.bundle.json", "1")]);
    first.accept(A, "ref");
    first.close();
    expect(PulledCopies.open(directory).current()?.digest).toBe(A);
  });

  test("without a cache directory the copies are in a temporary directory that close removes", () => {
    scratch = mkdtempSync(join(tmpdir(), "pulled-copies-"));
    const copies = PulledCopies.open(undefined);
    copies.stage(A, [file("a.bundle.json", "1")]);
    expect(existsSync(copies.directory)).toBe(true);
    copies.close();
    expect(existsSync(copies.directory)).toBe(false);
  });

  test("a file name that leaves the directory or hides is refused, and nothing is staged", () => {
    const copies = PulledCopies.open(cacheDirectory());
    for (const name of ["../escape.bundle.json", "a/b.bundle.json", ".hidden", ""]) {
      expect(() => copies.stage(A, [file("ok.bundle.json", "1"), file(name, "x")])).toThrow(SourceError);
      expect(readdirSync(copies.directory)).toEqual([]);
    }
    expect(existsSync(join(scratch, "escape.bundle.json"))).toBe(false);
  });

  test("a current.json that is not whole, or names a copy that is gone, is no last good copy", () => {
    const copies = PulledCopies.open(cacheDirectory());
    writeFileSync(join(copies.directory, "current.json"), '{"digest": "sha');
    expect(copies.current()).toBeUndefined();
    writeFileSync(join(copies.directory, "current.json"), JSON.stringify({ digest: A, ref: "ref" }));
    expect(copies.current()).toBeUndefined();
  });

  test("a cache directory that cannot be made is SOURCE_CACHE_UNUSABLE", () => {
    scratch = mkdtempSync(join(tmpdir(), "pulled-copies-"));
    writeFileSync(join(scratch, "file"), "");
    expect(() => PulledCopies.open(join(scratch, "file", "cache"))).toThrow(
      expect.objectContaining({ code: "SOURCE_CACHE_UNUSABLE" }),
    );
  });
});
