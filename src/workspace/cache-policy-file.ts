import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { readSource } from "../compiler/source/read-source.ts";
import type { LoadProblem } from "../engine/bundle/load-problem.ts";
import { CachePolicy } from "./cache-policy.ts";

/**
 * The cache policy of a rules directory from its policy files (at most one), checked against the
 * rulesets the directory defines: the policy, or the default one with the problems that refuse it.
 */
export function readCachePolicyFiles(
  files: readonly string[],
  rulesetIds: ReadonlySet<string>,
): { policy: CachePolicy; problems: LoadProblem[] } {
  // Named at the second file: the one that is too many.
  if (files.length > 1)
    return {
      policy: CachePolicy.DEFAULT,
      problems: [
        {
          code: "CACHE_POLICY_INVALID",
          message: `only one cache policy file is allowed, found ${files.map((file) => basename(file)).join(", ")}`,
          file: files[1]!,
        },
      ],
    };
  if (files.length === 0) return { policy: CachePolicy.DEFAULT, problems: [] };
  const file = files[0]!;
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    // It may vanish while a volume is swapped.
    return {
      policy: CachePolicy.DEFAULT,
      problems: [
        {
          code: "FILE_UNREADABLE",
          message: `cannot read the file: ${error instanceof Error ? error.message : String(error)}`,
          file,
        },
      ],
    };
  }
  const read = readSource(text, file);
  if (!read.ok || read.problems.length > 0)
    return { policy: CachePolicy.DEFAULT, problems: read.problems.map((problem) => ({ ...problem, file })) };
  const policy = CachePolicy.read(read.value, rulesetIds, file);
  return { policy: policy.policy ?? CachePolicy.DEFAULT, problems: policy.problems };
}
