import { readFileSync, realpathSync } from "node:fs";
import { isAbsolute, relative, resolve, sep } from "node:path";
import type { SchemaLoader } from "../compiler/checks/static-checks.ts";
import { readSource } from "../compiler/source/read-source.ts";
import type { JsonValue } from "../engine/value/json-value.ts";

/**
 * Entity schemas named by `$ref` relative to the directory of the rulesets (JSON or YAML,
 * OpenAPI or JSON Schema). A reference that leaves that directory, or a file that cannot be read
 * or parsed, does not resolve (SCHEMA_REF_UNRESOLVED): rules never reach outside their folder.
 * Each file is read once per loader, so rulesets of one directory share one.
 */
export function entitySchemaLoader(rulesDirectory: string): SchemaLoader {
  const directory = resolve(rulesDirectory);
  const cache = new Map<string, JsonValue | undefined>();
  return (ref: string) => {
    if (cache.has(ref)) return cache.get(ref);
    const document = readSchemaFile(directory, ref);
    cache.set(ref, document);
    return document;
  };
}

function readSchemaFile(directory: string, ref: string): JsonValue | undefined {
  if (ref === "" || isAbsolute(ref)) return undefined;
  try {
    const path = realpathSync(resolve(directory, ref));
    const inside = relative(realpathSync(directory), path);
    // Outside means a `..` segment first; a name such as `..data` (a ConfigMap's) is inside.
    if (inside === ".." || inside.startsWith(`..${sep}`) || isAbsolute(inside)) return undefined;
    const read = readSource(readFileSync(path, "utf8"), path);
    return read.ok ? read.value : undefined;
  } catch {
    return undefined;
  }
}
