import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { LoadedRuleset } from "../engine/bundle/loaded-ruleset.ts";
import { copyJson } from "../engine/value/json-copy.ts";
import type { JsonObject, JsonValue } from "../engine/value/json-value.ts";
import { ruleFileKind } from "./files/rule-file-kind.ts";
import { rulesDirectoryHash } from "./files/rules-directory-hash.ts";
import { readSourceFile, type SourceFile } from "./files/source-documents.ts";
import type { LoadedRuleFile } from "./rule-file-loader.ts";

/**
 * Bun's hasher and deflate rather than node:crypto's and node:zlib's: loading those two modules
 * took 20 ms of the release executable's start-up, which reads every source through here.
 */
const decoder = new TextDecoder();

/** A ruleset compiled at an earlier load, and the texts it was compiled from. */
interface CompiledEntry {
  readonly textHash: string;
  /** The files of its parents, each with the hash of the text it was compiled with. */
  readonly parents: readonly { readonly file: string; readonly textHash: string }[];
  /** The directory's other files (entity schemas) at that load. */
  readonly supportStamp: string;
  /** Absent between letGoOfCompiled and adopt. */
  readonly ruleset?: LoadedRuleset;
  readonly bundle?: JsonObject;
}

/**
 * What a reload of a rules directory takes from the loads before it (the server reloads on SIGHUP
 * and on schedule; at a thousand rulesets a load is mostly reading YAML and compiling): a source
 * whose own text, whose parents' texts and whose directory's other files (entity schemas) are
 * unchanged keeps its compiled ruleset, and its document is read back from JSON rather than YAML.
 * Sources that compile again are read whole, with their places. Only loads that succeed use what is
 * kept: a load with any problem is made again without it, so that every problem is told as a fresh
 * load tells it. What is kept is the compiled rulesets the server serves anyway, and each source's
 * document as deflated JSON text.
 */
export class ReloadCache {
  /**
   * Each source's document, as read until packDocuments deflates its JSON: at a thousand rulesets,
   * 17 MiB of JSON are 6 packed.
   */
  private readonly documents = new Map<
    string,
    { readonly textHash: string; document?: JsonValue; packed?: Uint8Array<ArrayBuffer> }
  >();
  private readonly compiled = new Map<string, CompiledEntry>();
  /** This load's: each file's text hash, the support files' stamp, and the sources whose compiled ruleset is reused. */
  private textHashes = new Map<string, string | undefined>();
  private supportStamp = "";
  private reusable = new Set<string>();

  /** Starts a load of `directory` (as the loader names it). */
  begin(directory: string): void {
    this.texts = new Map();
    this.textHashes = new Map();
    this.reusable = new Set();
    // Everything under the directory but its rule files: what compiling a source may read besides them.
    this.supportStamp = rulesDirectoryHash(directory, (path) => !path.includes("/") && ruleFileKind(path) !== "other");
  }

  /** A source as this load reads it: from JSON, without places, when its compiled ruleset will be reused. */
  sourceFile(file: string): SourceFile {
    const key = resolve(file);
    const text = this.text(key);
    if (text === undefined) return readSourceFile(file);
    const kept = this.documents.get(key);
    if (kept !== undefined && kept.textHash === this.textHash(key) && this.compiledStillHolds(key)) {
      this.reusable.add(key);
      const document =
        kept.packed === undefined
          ? copyJson(kept.document!)
          : (JSON.parse(decoder.decode(Bun.inflateSync(kept.packed))) as JsonValue);
      const metadata = (document as { metadata?: { id?: unknown } }).metadata;
      const id = typeof metadata?.id === "string" && metadata.id !== "" ? metadata.id : undefined;
      return { file, document, id, problems: [] };
    }
    const read = readSourceFile(file, () => text);
    if (read.document !== undefined && read.problems.length === 0)
      this.documents.set(key, { textHash: this.textHash(key)!, document: read.document });
    return read;
  }

  /**
   * Deflates the JSON of the documents read since the last call: the server does it once a load is
   * served, so that a start-up does not wait for it.
   */
  packDocuments(): void {
    for (const kept of this.documents.values()) {
      if (kept.document === undefined) continue;
      // The fastest level: the point is memory, and a reload reads them all back.
      kept.packed = Bun.deflateSync(JSON.stringify(kept.document), { level: 1 });
      kept.document = undefined;
    }
  }

  /** The compiled ruleset of a source this load reuses; undefined when it must compile. */
  reused(file: string): LoadedRuleFile | undefined {
    const key = resolve(file);
    if (!this.reusable.has(key)) return undefined;
    const entry = this.compiled.get(key)!;
    if (entry.ruleset === undefined || entry.bundle === undefined) return undefined;
    return { ok: true, file, ruleset: entry.ruleset, bundle: entry.bundle };
  }

  /**
   * Lets go of the compiled rulesets until `adopt` gives each back, as the objects the server made
   * afresh from their bundles after a load (rules-snapshot.ts says why); one not given back is
   * compiled again at the next load.
   */
  letGoOfCompiled(): void {
    for (const [key, { ruleset: _ruleset, bundle: _bundle, ...kept }] of this.compiled) this.compiled.set(key, kept);
  }

  /** Whether the last load reused `ruleset` for `file` from an earlier one, rather than compiling it. */
  reusedAtLastLoad(file: string, ruleset: LoadedRuleset): boolean {
    const key = resolve(file);
    return this.reusable.has(key) && this.compiled.get(key)?.ruleset === ruleset;
  }

  /** Keeps `ruleset` and `bundle` as the compiled ruleset of `file`, which compiled at this load. */
  adopt(file: string, ruleset: LoadedRuleset, bundle: JsonObject): void {
    const key = resolve(file);
    const entry = this.compiled.get(key);
    if (entry !== undefined) this.compiled.set(key, { ...entry, ruleset, bundle });
  }

  /** Keeps a source's compiled ruleset, with the files of its parents. */
  remember(file: string, ruleset: LoadedRuleset, bundle: JsonObject, parentFiles: readonly string[]): void {
    const key = resolve(file);
    const textHash = this.textHash(key);
    const parents = parentFiles.map((parent) => ({ file: resolve(parent), textHash: this.textHash(resolve(parent)) }));
    if (textHash === undefined || parents.some((parent) => parent.textHash === undefined)) return;
    this.compiled.set(key, {
      textHash,
      parents: parents as CompiledEntry["parents"],
      supportStamp: this.supportStamp,
      ruleset,
      bundle,
    });
  }

  /** Ends a load: what belongs to files no longer there is let go, and so are this load's texts. */
  end(): void {
    for (const map of [this.documents, this.compiled])
      for (const file of map.keys()) if (!this.textHashes.has(file)) map.delete(file);
    this.texts = new Map();
  }

  private compiledStillHolds(key: string): boolean {
    const entry = this.compiled.get(key);
    return (
      entry?.ruleset !== undefined &&
      entry.textHash === this.textHash(key) &&
      entry.supportStamp === this.supportStamp &&
      entry.parents.every((parent) => this.textHash(parent.file) === parent.textHash)
    );
  }

  /** This load's texts, read once each (a parent's by every child that checks it). */
  private texts = new Map<string, string | undefined>();

  private text(key: string): string | undefined {
    if (!this.texts.has(key)) {
      let text: string | undefined;
      try {
        text = readFileSync(key, "utf8");
      } catch {
        text = undefined;
      }
      this.texts.set(key, text);
      this.textHashes.set(
        key,
        text === undefined ? undefined : new Bun.CryptoHasher("sha256").update(text).digest("hex"),
      );
    }
    return this.texts.get(key);
  }

  private textHash(key: string): string | undefined {
    this.text(key);
    return this.textHashes.get(key);
  }
}
