import type { Location } from "vscode-languageserver/node";
import type { JsonValue } from "../engine/value/json-value.ts";
import type { MemberPart, SourceLocator } from "../compiler/source/source-position.ts";
import { uriOfPath } from "./file-uri.ts";
import { rangeAt } from "./text-range.ts";

/** A place in a read document as an editor location: the file's text gives the range its width. */
export function locationIn(
  file: string,
  locate: SourceLocator | undefined,
  path: readonly string[],
  part: MemberPart,
  textOf: (file: string) => string | undefined,
): Location | undefined {
  const position = locate?.(path, part);
  if (position === undefined) return undefined;
  return { uri: uriOfPath(file), range: rangeAt(textOf(file), position.line, position.column) };
}

/** A document of the directory and how to find places in it. */
export interface PlacedDocument {
  readonly file: string;
  readonly document: JsonValue | undefined;
  readonly locate?: SourceLocator;
}
