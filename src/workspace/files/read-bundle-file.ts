import { readFileSync } from "node:fs";
import { sha256Digest } from "./content-digest.ts";
import { TOOL_ENGINE } from "../tool-engine.ts";
import { jsonLocator } from "../../compiler/source/json-locator.ts";
import { readJsonSource } from "../../compiler/source/read-json-source.ts";
import { BundleMemberError } from "../../engine/bundle/bundle-member-error.ts";
import { LoadError, type LoadProblem } from "../../engine/bundle/load-problem.ts";
import { LoadedRuleset } from "../../engine/bundle/loaded-ruleset.ts";
import { NO_CUSTOM_OPERATORS, type CustomOperators } from "../../engine/expression/custom-operators.ts";
import type { JsonObject } from "../../engine/value/json-value.ts";
import { parseJson } from "../../engine/value/parse-json.ts";

export type BundleFileRead =
  | {
      ok: true;
      bundle: JsonObject;
      ruleset: LoadedRuleset;
      /** `sha256:<hex>` of the file's bytes as read, what a signature of the file names. */
      digest: string;
      /** The file's text, as read and parsed. */
      text: string;
    }
  | { ok: false; problems: LoadProblem[] };

/**
 * A `*.bundle.json` file as the server and `check` load it, each problem at its line: a syntax
 * error where the text breaks, a refused envelope at the member at fault. Bundles are parsed as
 * the engine parses them; the strict source reader runs only on a file that failed, to find the place.
 */
export function readBundleFile(file: string, operators: CustomOperators = NO_CUSTOM_OPERATORS): BundleFileRead {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    // The file may vanish while a volume is swapped.
    return {
      ok: false,
      problems: [
        {
          code: "FILE_UNREADABLE",
          message: `cannot read the file: ${error instanceof Error ? error.message : String(error)}`,
          file,
        },
      ],
    };
  }
  const text = bytes.toString("utf8");
  const parsed = parseJson(text);
  if (!parsed.ok) {
    const placed = readJsonSource(text, file).problems.filter((problem) => problem.code === "SOURCE_INVALID");
    const problems = placed.map(({ message, line, column }) => ({
      code: "BUNDLE_INVALID",
      message,
      file,
      line,
      column,
    }));
    return {
      ok: false,
      problems: problems.length > 0 ? problems : [{ code: "BUNDLE_INVALID", message: parsed.message, file }],
    };
  }
  try {
    return {
      ok: true,
      bundle: parsed.value as JsonObject,
      ruleset: LoadedRuleset.fromBundle(parsed.value, operators, TOOL_ENGINE),
      digest: sha256Digest(bytes),
      text,
    };
  } catch (error) {
    if (!(error instanceof LoadError)) throw error;
    const position = error instanceof BundleMemberError ? jsonLocator(text)(error.member, "value") : undefined;
    return { ok: false, problems: error.problems.map((problem) => ({ ...problem, file, ...position })) };
  }
}
