import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";

const ROOT = join(import.meta.dir, "..", "..");

/** TypeScript could not write a module's declarations. */
export class DeclarationsError extends Error {
  readonly code = "DECLARATIONS_FAILED" as const;
  override readonly name = "DeclarationsError";
}

export interface DeclarationsOptions {
  /** The first line's comment: what the declarations are of. */
  readonly title: string;
  /**
   * Source files that are a module of their own beside this one (the engine beside the client), by
   * path, with the specifier the declarations import them by (`./engine.js`): not inlined.
   */
  readonly externals?: Readonly<Record<string, string>>;
}

const IMPORT = /^(?:import|export)\b[^;]*?\bfrom\s+"(\.[^"]+)";\n/gm;
const WHOLESALE = /^export (?:type )?\* from "(\.[^"]+)";\n/gm;

/**
 * One declaration file for a bundled module: TypeScript's declarations of the entry and of the
 * files its declarations reach, inlined into one module. Only the entry's exports are exported
 * (and all of a file it re-exports with `export *`); an external is imported by its specifier.
 */
export function moduleDeclarations(entry: string, options: DeclarationsOptions): string {
  const out = mkdtempSync(join(tmpdir(), "rule-server-types-"));
  try {
    const tsc = spawnSync(
      join(ROOT, "node_modules", ".bin", "tsc"),
      [
        "--ignoreConfig",
        "--declaration",
        "--emitDeclarationOnly",
        "--outDir",
        out,
        "--rootDir",
        ROOT,
        "--allowImportingTsExtensions",
        "--rewriteRelativeImportExtensions",
        "--module",
        "preserve",
        "--moduleResolution",
        "bundler",
        "--target",
        "es2022",
        "--lib",
        "es2023,dom",
        "--strict",
        "--skipLibCheck",
        "--types",
        "",
        entry,
      ],
      { cwd: ROOT, encoding: "utf8" },
    );
    if (tsc.status !== 0)
      throw new DeclarationsError(`declarations of ${relative(ROOT, entry)}: ${tsc.stdout}${tsc.stderr}`);
    const declarationOf = (source: string): string => join(out, relative(ROOT, source)).replace(/\.ts$/, ".d.ts");
    const externals = new Map(
      Object.entries(options.externals ?? {}).map(([source, specifier]) => [declarationOf(source), specifier]),
    );
    const entryDeclarations = declarationOf(entry);
    const seen = new Set<string>([entryDeclarations]);
    const pending = [entryDeclarations];
    const wholesale = new Set<string>();
    const inner: string[] = [];
    const externalImports = new Set<string>();
    let exported = "";
    const targetOf = (file: string, specifier: string): string =>
      join(dirname(file), specifier.replace(/\.(ts|js)$/, ".d.ts"));
    while (pending.length > 0) {
      const file = pending.shift()!;
      let text = readFileSync(file, "utf8");
      // An external's import keeps its line, pointed at the external's specifier.
      text = text.replace(IMPORT, (line, specifier: string) => {
        const external = externals.get(targetOf(file, specifier));
        if (external === undefined) return line;
        const rewritten = line.replace(`"${specifier}"`, `"${external}"`);
        if (file === entryDeclarations && rewritten.startsWith("export")) return `\u0000${rewritten}`;
        externalImports.add(rewritten);
        return "";
      });
      for (const match of text.matchAll(IMPORT)) {
        const target = targetOf(file, match[1]!);
        if (file === entryDeclarations && /^export (?:type )?\* from /.test(match[0])) wholesale.add(target);
        if (!seen.has(target)) {
          seen.add(target);
          pending.push(target);
        }
      }
      if (file === entryDeclarations) {
        exported = text
          .replace(WHOLESALE, "")
          .replace(/^(export\b[^;]*?)\s+from\s+"\.[^"]+";$/gm, "$1;")
          .replace(/^import\b[^;]*;\n/gm, "")
          .replaceAll("\u0000", "");
        continue;
      }
      const body = text.replace(IMPORT, "").replace(/^export \{\};?\n/gm, "");
      const place = `// ${relative(out, file).replace(/\.d\.ts$/, ".ts")}\n`;
      inner.push(
        place +
          (wholesale.has(file)
            ? body
            : body.replace(/^export (declare |interface |type (?!\{))/gm, "$1").replace(/^export (declare )?/gm, "$1")),
      );
    }
    return `/** ${options.title} */\n${[...externalImports].join("")}${inner.join("\n")}\n${exported}`;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
