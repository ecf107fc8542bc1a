import { afterAll } from "bun:test";
import { join } from "node:path";
import { compileSourceFile } from "../../src/workspace/compile-source-file.ts";
import { readBundleFile } from "../../src/workspace/files/read-bundle-file.ts";
import { ruleFileKind } from "../../src/workspace/files/rule-file-kind.ts";
import type { LoadProblem } from "../../src/engine/bundle/load-problem.ts";
import { temporaryDirectory } from "./temp-directory.ts";

/**
 * The problems of compiling one file of a golden case's small rules directory, as `check` does
 * (none when it compiles); a bundle file is loaded as `check` and the server load it. Call at the top of a test file: the directories are removed after it.
 */
export function caseCompiler(): (files: Record<string, string>, compile: string) => LoadProblem[] {
  const cleanups: (() => void)[] = [];
  afterAll(() => cleanups.forEach((remove) => remove()));
  return (files, compile) => {
    const directory = temporaryDirectory(files);
    cleanups.push(directory.remove);
    const file = join(directory.path, compile);
    if (ruleFileKind(compile) === "bundle") {
      const read = readBundleFile(file);
      return read.ok ? [] : read.problems;
    }
    const compilation = compileSourceFile(file);
    return compilation.ok ? [] : compilation.problems;
  };
}
