import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { LoadProblem } from "../engine/bundle/load-problem.ts";
import type { CustomOperators } from "../engine/expression/custom-operators.ts";
import { loadRulesDirectory } from "../workspace/load-rules-directory.ts";

/** A bundle of a release, by the name it has in the release, with a signature it already had. */
export interface ReleaseBundle {
  readonly id: string;
  readonly name: string;
  readonly bytes: Uint8Array;
  /** The `.sig` beside a bundle file that was given compiled. */
  readonly signature?: Uint8Array;
}

export type ReleaseBundles =
  | { readonly ok: true; readonly bundles: readonly ReleaseBundle[] }
  | { readonly ok: false; readonly problems: readonly LoadProblem[] };

const encoder = new TextEncoder();

/**
 * The bundles a release of these directories and files holds: each loaded as the server loads its
 * directory, with every golden test run (a failing test refuses the release, as
 * RULE_SERVER_RUN_TESTS would refuse the load). A source becomes its compiled bundle, written as
 * `compile` writes it; a bundle file goes as its bytes, with its signature when it has one. A
 * ruleset named twice across the paths is a problem, as in one directory.
 */
export function releaseBundles(paths: readonly string[], operators: CustomOperators): ReleaseBundles {
  const problems: LoadProblem[] = [];
  const bundles = new Map<string, ReleaseBundle & { readonly file: string }>();
  const wanted = new Map<string, Set<string> | "all">();
  for (const path of paths.map((path) => resolve(path))) {
    if (!existsSync(path)) {
      problems.push({ code: "FILE_UNREADABLE", message: `there is no ${path}`, file: path });
      continue;
    }
    const directory = statSync(path).isDirectory() ? path : dirname(path);
    const files = wanted.get(directory);
    if (statSync(path).isDirectory()) wanted.set(directory, "all");
    else if (files !== "all") wanted.set(directory, new Set([...(files ?? []), path]));
  }
  for (const [directory, files] of wanted) {
    const loaded = loadRulesDirectory(directory, { operators, runTests: true });
    const mine = (file: string) => files === "all" || files.has(resolve(file));
    problems.push(...loaded.problems.filter((problem) => problem.file === undefined || mine(problem.file)));
    for (const { ruleset, bundle, file, source } of loaded.rulesets) {
      if (!mine(file)) continue;
      const earlier = bundles.get(ruleset.id);
      if (earlier !== undefined) {
        problems.push({
          code: "RULESET_DUPLICATE",
          message: `ruleset ${ruleset.id} is defined here and in ${earlier.file}: a release holds each ruleset once`,
          file,
        });
        continue;
      }
      const name = `${ruleset.id}.bundle.json`;
      const signatureFile = `${file}.sig`;
      bundles.set(
        ruleset.id,
        source === undefined
          ? {
              id: ruleset.id,
              name,
              file,
              bytes: readFileSync(file),
              ...(existsSync(signatureFile) ? { signature: readFileSync(signatureFile) } : {}),
            }
          : { id: ruleset.id, name, file, bytes: encoder.encode(`${JSON.stringify(bundle, null, 2)}\n`) },
      );
    }
  }
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, bundles: [...bundles.values()].map(({ file: _file, ...bundle }) => bundle) };
}
