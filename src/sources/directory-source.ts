import type { PulledRules, RulesSource } from "./rules-source.ts";

/** RULES_DIR: the directory is read as it is at every load; whether it changed is the refresh schedule's question. */
export function directorySource(directory: string): RulesSource {
  const rules: PulledRules = {
    changed: true,
    directory,
    description: { kind: "directory", ref: directory },
    accept: () => undefined,
    discard: () => undefined,
  };
  return {
    kind: "directory",
    ref: directory,
    pull: async () => rules,
    lastGood: () => undefined,
    close: () => undefined,
  };
}
