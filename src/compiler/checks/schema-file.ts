import type { LoadProblem } from "../../engine/bundle/load-problem.ts";
import type { JsonValue } from "../../engine/value/json-value.ts";
import type { DocumentSource } from "../problems/problem-place.ts";

/**
 * An entity schema file as its loader read it: the parsed document (with its file and places
 * when it came from one, so a fragment that does not resolve is pointed at inside it), or why it
 * cannot be used. A file that does not parse keeps its own problems, each at its line, so the
 * author is sent to the line to fix rather than only to the `$ref` that names the file.
 */
export type SchemaFile =
  | { readonly ok: true; readonly document: JsonValue; readonly source?: DocumentSource }
  | { readonly ok: false; readonly reason: string; readonly problems: readonly LoadProblem[] };

/**
 * Reads the document an entity's `$ref` names (the part before `#`); undefined when there is
 * none (for loaders that know no more than that).
 */
export type SchemaLoader = (file: string) => SchemaFile | undefined;
