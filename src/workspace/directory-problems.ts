import type { LoadProblem } from "../engine/bundle/load-problem.ts";
import type { CustomOperators } from "../engine/expression/custom-operators.ts";
import { readBundleFile } from "../rule-files/read-bundle-file.ts";
import { ruleFilesOf } from "../rule-files/rule-files-of-directory.ts";
import type { SourceFile } from "../rule-files/source-documents.ts";
import { readCachePolicyFiles } from "./cache-policy-file.ts";
import { RulesetClaims } from "./ruleset-claims.ts";

/**
 * What the server refuses about a rules directory as a whole, beyond each file on its own: a
 * ruleset id defined twice across its sources and bundles, and a cache policy that does not read,
 * names a ruleset the directory does not define, or a mode there is not. `check` reports these
 * where the server does, so that a directory `check` passes is one the server loads.
 */
export function rulesDirectoryProblems(directory: string, sources: readonly SourceFile[], operators: CustomOperators): LoadProblem[] {
  let files: ReturnType<typeof ruleFilesOf>;
  try {
    files = ruleFilesOf(directory);
  } catch {
    // A directory that cannot be listed: each file named in it reports why it cannot be read.
    files = { source: [], bundle: [], "cache-policy": [], other: [] };
  }
  const problems: LoadProblem[] = [];
  // Claimed in the server's order: sources that read, then bundles that load, each in file order.
  const claims = new RulesetClaims(problems);
  for (const source of sources) {
    if (source.document === undefined || source.problems.length > 0 || source.id === undefined) continue;
    claims.claim(source.id, source.file, source.locate?.(["metadata", "id"], "value"));
  }
  for (const file of files.bundle) {
    const read = readBundleFile(file, operators);
    if (read.ok) claims.claim(read.ruleset.id, file);
  }
  problems.push(...readCachePolicyFiles(files["cache-policy"], claims.ids()).problems);
  return problems;
}
