import { relative } from "node:path";
import type { LoadProblem } from "../../engine/bundle/load-problem.ts";

/** What caused a reload; logged as `trigger`. */
export type ReloadTrigger = "SIGHUP" | "interval" | "cron" | "api";

/**
 * The last reload attempted, as `/readyz` reports it (DECISIONS.md, Extensions): when, why, and
 * whether it was swapped in; a refused one lists its problems, files relative to RULES_DIR.
 */
export interface LastReload {
  readonly at: string;
  readonly trigger: ReloadTrigger;
  readonly outcome: "reloaded" | "refused";
  readonly problems?: readonly LoadProblem[];
}

export function refusedReload(
  at: Date,
  trigger: ReloadTrigger,
  problems: readonly LoadProblem[],
  rulesDir: string,
): LastReload {
  // /readyz is public: name files by their place in the rules directory, not by the host's paths.
  const place = <Place extends { readonly file: string }>(at: Place | undefined): Place | undefined =>
    at === undefined ? undefined : { ...at, file: relative(rulesDir, at.file) };
  const listed = problems.map((problem): LoadProblem => {
    const { referencedAt, firstDefinedAt } = problem;
    return {
      ...problem,
      ...(problem.file === undefined ? {} : { file: relative(rulesDir, problem.file) }),
      ...(referencedAt === undefined ? {} : { referencedAt: place(referencedAt) }),
      ...(firstDefinedAt === undefined ? {} : { firstDefinedAt: place(firstDefinedAt) }),
    };
  });
  return { at: at.toISOString(), trigger, outcome: "refused", problems: listed };
}
