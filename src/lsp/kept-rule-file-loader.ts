import { resolve } from "node:path";
import type { CustomOperators } from "../engine/expression/custom-operators.ts";
import type { RulesDirectory } from "../workspace/compile-source-file.ts";
import { RuleFileLoader, type LoadedRuleFile } from "../workspace/rule-file-loader.ts";

/**
 * A loader that answers for the files a check does not load again with how they loaded at the
 * check before: the directory's problems (which ids each file claims) are worked out from every
 * file, and only the files the edit can change are compiled.
 */
export class KeptRuleFileLoader extends RuleFileLoader {
  constructor(
    operators: CustomOperators,
    readDirectory: (directory: string) => RulesDirectory,
    /** By resolved path. */
    private readonly kept: ReadonlyMap<string, LoadedRuleFile>,
  ) {
    super(operators, readDirectory);
  }

  override load(file: string): LoadedRuleFile {
    return this.kept.get(resolve(file)) ?? super.load(file);
  }
}

/**
 * What is kept of a load until the next check: the outcome without what compiling gave (the
 * compilation, the directory it was compiled in), which the file's report already holds.
 */
export function keptLoad(loaded: LoadedRuleFile): LoadedRuleFile {
  return loaded.ok ? { ok: true, file: loaded.file, ruleset: loaded.ruleset, bundle: loaded.bundle } : loaded;
}
