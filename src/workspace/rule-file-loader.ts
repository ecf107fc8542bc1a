import { basename, dirname, resolve } from "node:path";
import type { LoadProblem } from "../engine/bundle/load-problem.ts";
import { LoadedRuleset } from "../engine/bundle/loaded-ruleset.ts";
import type { CustomOperators } from "../engine/expression/custom-operators.ts";
import type { JsonObject } from "../engine/value/json-value.ts";
import { readBundleFile } from "./files/read-bundle-file.ts";
import { TOOL_ENGINE } from "./tool-engine.ts";
import type { ReloadCache } from "./reload-cache.ts";
import { ruleFileKind } from "./files/rule-file-kind.ts";
import {
  compileSourceFile,
  readRulesDirectory,
  type RulesDirectory,
  type SourceCompilation,
} from "./compile-source-file.ts";

/** A rule file loaded as the server loads it: a bundle read, or a source compiled (with what its compilation gave). */
export type LoadedRuleFile =
  | {
      readonly ok: true;
      readonly file: string;
      readonly ruleset: LoadedRuleset;
      readonly bundle: JsonObject;
      /** A bundle file's: `sha256:<hex>` of its bytes as read. */
      readonly digest?: string;
      /** A bundle file's text as read: the bytes the digest is of, so they need not be read again. */
      readonly text?: string;
      readonly compiled?: {
        readonly compilation: SourceCompilation & { ok: true };
        readonly directory: RulesDirectory;
      };
    }
  | { readonly ok: false; readonly file: string; readonly ruleset?: string; readonly problems: readonly LoadProblem[] };

/**
 * Loads rule files as the server would: the rulesets of a source's directory form its registry,
 * each directory is read once, whatever the number of files named in it, and each file is loaded
 * once, whether a per-file check or the directory as a whole asks for it first.
 */
export class RuleFileLoader {
  private readonly read = new Map<string, RulesDirectory>();
  private readonly loaded = new Map<string, LoadedRuleFile>();

  /** With `cache`, sources unchanged since an earlier load keep their compiled ruleset (reload-cache.ts). */
  constructor(
    private readonly operators: CustomOperators,
    private readonly readDirectory: (directory: string) => RulesDirectory = (directory) =>
      readRulesDirectory(directory),
    private readonly cache?: ReloadCache,
  ) {}

  load(file: string): LoadedRuleFile {
    const key = resolve(file);
    let loaded = this.loaded.get(key);
    if (loaded === undefined) this.loaded.set(key, (loaded = this.loadNow(file)));
    return loaded;
  }

  /** A directory's sources and what compiling them needs, read once. */
  directory(directory: string): RulesDirectory {
    let read = this.read.get(directory);
    if (read === undefined) this.read.set(directory, (read = this.readDirectory(directory)));
    return read;
  }

  private loadNow(file: string): LoadedRuleFile {
    if (ruleFileKind(basename(file)) === "bundle") {
      const read = readBundleFile(file, this.operators);
      return read.ok
        ? { ok: true, file, ruleset: read.ruleset, bundle: read.bundle, digest: read.digest, text: read.text }
        : { ok: false, file, problems: read.problems };
    }
    const directory = this.directory(dirname(file));
    const reused = this.cache?.reused(file);
    if (reused !== undefined) return reused;
    const compilation = compileSourceFile(file, directory);
    if (!compilation.ok) return { ok: false, file, ruleset: compilation.source.id, problems: compilation.problems };
    const bundle = compilation.compiled.bundle;
    const ruleset = LoadedRuleset.fromBundle(bundle, this.operators, TOOL_ENGINE);
    if (this.cache !== undefined) {
      // Each parent by its id: the source of the directory that defines it.
      const parents = compilation.compiled.ruleset.parents.map(
        (parent) => directory.sourceWithId(String(parent.resolved.id))?.file,
      );
      if (parents.every((parent) => parent !== undefined)) this.cache.remember(file, ruleset, bundle, parents);
    }
    return { ok: true, file, ruleset, bundle, compiled: { compilation, directory } };
  }
}
