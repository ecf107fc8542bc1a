import { readFileSync, realpathSync } from "node:fs";
import { basename, isAbsolute, relative, resolve, sep } from "node:path";
import type { SchemaFile, SchemaLoader } from "../../compiler/checks/schema-file.ts";
import { readSource } from "../../compiler/source/read-source.ts";

/**
 * Entity schemas named by `$ref` relative to the directory of the rulesets (JSON or YAML,
 * OpenAPI or JSON Schema). A reference that leaves that directory, or a file that cannot be read
 * or parsed, does not resolve (SCHEMA_REF_UNRESOLVED): rules never reach outside their folder.
 * A file that does not parse is reported with its own problems, at their lines in it.
 * Each file is read once per loader, so rulesets of one directory share one.
 */
export function entitySchemaLoader(
  rulesDirectory: string,
  unsavedText?: (file: string) => string | undefined,
): SchemaLoader {
  const directory = resolve(rulesDirectory);
  const cache = new Map<string, SchemaFile>();
  return (ref: string) => {
    let read = cache.get(ref);
    if (read === undefined) cache.set(ref, (read = readSchemaFile(directory, ref, unsavedText)));
    return read;
  };
}

const refused = (reason: string): SchemaFile => ({ ok: false, reason, problems: [] });

/** `unsavedText` gives an editor's text of a file, which stands for what is on disk (the file must still exist there). */
function readSchemaFile(
  directory: string,
  ref: string,
  unsavedText?: (file: string) => string | undefined,
): SchemaFile {
  if (ref === "") return refused("it names no file");
  if (isAbsolute(ref)) return refused("a schema file is named relative to the rules directory");
  // Problems name the file as the $ref does, not as links resolve.
  const file = resolve(directory, ref);
  let text: string;
  try {
    const path = realpathSync(file);
    const inside = relative(realpathSync(directory), path);
    // Outside means a `..` segment first; a name such as `..data` (a ConfigMap's) is inside.
    if (inside === ".." || inside.startsWith(`..${sep}`) || isAbsolute(inside))
      return refused("the file is outside the rules directory");
    text = unsavedText?.(file) ?? readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return refused(
      code === "ENOENT"
        ? "there is no such file in the rules directory"
        : `the file cannot be read (${String(code ?? error)})`,
    );
  }
  const read = readSource(text, file);
  if (read.ok) return { ok: true, document: read.value, source: { file, locate: read.locate } };
  return {
    ok: false,
    reason: `${basename(file)} has ${read.problems.length} problem(s) of its own`,
    problems: read.problems,
  };
}
