import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative, sep } from "node:path";
import { PROJECT_ROOT } from "../support/run-cli.ts";

/**
 * The parts of src/ import downward only: data flows documents -> compiler -> bundle -> engine, one
 * workspace reads rules directories for the server and every tool, and the command line, the
 * language server and the server sit on top without importing one another (the command line only
 * starts the other two). Each part may import the parts listed for it and nothing else; a new
 * import across parts, or a new part, fails here until this table says it is meant.
 */
const MAY_IMPORT: Record<string, readonly string[]> = {
  engine: [],
  compiler: ["engine"],
  workspace: ["compiler", "engine"],
  // `rule-server fmt`: rewriting the expressions of source files in place.
  formatting: ["compiler", "engine"],
  schedule: ["engine"],
  xml: [],
  "standard-output": [],
  coverage: ["compiler", "engine", "xml"],
  records: ["compiler", "engine", "standard-output"],
  protocol: ["compiler", "engine", "version"],
  // Plans' translations (a Prisma `where` in a Node.js application) ship with the engine.
  browser: ["engine", "queries"],
  client: ["browser"],
  explorer: ["browser", "engine"],
  // The schemas' checking code is made at build time (prebuilt-checkers.ts).
  bundling: ["compiler"],
  packaging: ["bundling"],
  codegen: [],
  version: ["engine"],
  lsp: ["workspace", "formatting", "compiler", "engine", "coverage"],
  // OCI Distribution: rules artifacts pushed to and pulled from registries (content digests: the workspace's).
  oci: ["workspace"],
  // Bundle signatures (jose, WebCrypto): `rule-server keygen` and `sign`, and the server's trusted keys; a
  // signature names the digest the workspace's loader checks.
  signing: ["workspace"],
  // Where rules come from: RULES_DIR, an OCI registry or another rule-server, each ending as a directory the workspace loads.
  sources: ["oci", "workspace"],
  // OpenTelemetry spans, exported over OTLP/HTTP.
  tracing: [],
  // A plan's condition as SQL (SQLite, PostgreSQL) and Prisma filters.
  queries: ["engine"],
  // A plan request answered: the engine's plan and its query (`POST /plans`, `rule-server plan`).
  plans: ["queries", "engine"],
  server: [
    "plans",
    "tracing",
    "workspace",
    "sources",
    "oci",
    "signing",
    "compiler",
    "engine",
    "records",
    "schedule",
    "bundling",
    "standard-output",
    "version",
  ],
  cli: [
    "plans",
    "formatting",
    "signing",
    "oci",
    "lsp",
    "server",
    "workspace",
    "compiler",
    "engine",
    "coverage",
    "records",
    "protocol",
    "schedule",
    "xml",
    "standard-output",
    "version",
  ],
  // src/main.ts and src/index.ts, the executable's and the package's entries, wire everything: not judged.
  entry: [],
};

const SRC = join(PROJECT_ROOT, "src");

/** The part a file of src/ belongs to: its first folder; src/version.ts is a part of its own, main.ts and index.ts the entry. */
function partOf(file: string): string {
  const path = relative(SRC, file).split(sep);
  if (path.length > 1) return path[0]!;
  return path[0] === "version.ts" ? "version" : "entry";
}

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    return entry.isDirectory()
      ? sourceFiles(path)
      : /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts")
        ? [path]
        : [];
  });
}

/** Every import of another part: `from "../x"`, `import("../x")`, `import "../x"`. */
function crossingImports(): { from: string; to: string; file: string }[] {
  const crossings: { from: string; to: string; file: string }[] = [];
  for (const file of sourceFiles(SRC)) {
    for (const match of readFileSync(file, "utf8").matchAll(/(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g)) {
      const target = normalize(join(dirname(file), match[1]!));
      if (!target.startsWith(SRC + sep)) continue;
      const from = partOf(file);
      const to = partOf(target);
      if (from !== to) crossings.push({ from, to, file: relative(PROJECT_ROOT, file) });
    }
  }
  return crossings;
}

test("every part of src/ is in the table", () => {
  const parts = new Set(sourceFiles(SRC).map(partOf));
  expect([...parts].filter((part) => MAY_IMPORT[part] === undefined)).toEqual([]);
});

test("parts import only the parts below them", () => {
  const upward = crossingImports()
    .filter(({ from, to }) => from !== "entry" && !MAY_IMPORT[from]!.includes(to))
    .map(({ from, to, file }) => `${file}: ${from} imports ${to}`);
  expect(upward).toEqual([]);
});

test("the check sees the imports it judges: the command line imports the server and the language server", () => {
  const crossings = crossingImports();
  expect(crossings.some(({ from, to }) => from === "cli" && to === "server")).toBe(true);
  expect(crossings.some(({ from, to }) => from === "cli" && to === "lsp")).toBe(true);
  expect(crossings.some(({ from, to }) => from === "lsp" && to === "workspace")).toBe(true);
});
