import type { LoadProblem } from "../../engine/bundle/load-problem.ts";
import type { JsonValue } from "../../engine/value/json-value.ts";
import type { MemberPart, SourceLocator } from "../source/source-position.ts";

/**
 * Where in which source document a problem sits, before it is turned into a file, line and
 * column. Documents are told apart by identity: the registry holds the very objects read from
 * the files, so a problem in an inherited rule points into the parent's file.
 */
export interface ProblemPlace {
  readonly document: JsonValue;
  /** Member names and item indexes from the document's root. */
  readonly path: readonly string[];
  readonly part: MemberPart;
}

/** A load problem as the compiler first finds it. */
export interface PlacedProblem extends LoadProblem {
  readonly place?: ProblemPlace;
}

/** The file a document was read from and how to find places in it. */
export interface DocumentSource {
  readonly file: string;
  readonly locate: SourceLocator;
}

/** The source of a document, when it was read from a file. */
export type DocumentSources = (document: JsonValue) => DocumentSource | undefined;

export function placeIn(document: JsonValue, path: readonly string[], part: MemberPart = "value"): ProblemPlace {
  return { document, path, part };
}

/**
 * Plain load problems with file, line and column where the place is known. Files keep the order
 * they first appear in (a parent's problems before its child's); within a file, problems are in
 * the order of their lines.
 */
export function locateProblems(problems: readonly PlacedProblem[], sources: DocumentSources | undefined): LoadProblem[] {
  const located = problems.map(({ place, ...problem }): LoadProblem => {
    const source = place === undefined ? undefined : sources?.(place.document);
    if (place === undefined || source === undefined) return problem;
    const position = source.locate(place.path, place.part);
    return { ...problem, file: source.file, ...position };
  });
  const fileOrder = new Map<string | undefined, number>();
  for (const problem of located) if (!fileOrder.has(problem.file)) fileOrder.set(problem.file, fileOrder.size);
  return located
    .map((problem, index) => ({ problem, index }))
    .sort(
      (a, b) =>
        fileOrder.get(a.problem.file)! - fileOrder.get(b.problem.file)! ||
        (a.problem.line ?? Infinity) - (b.problem.line ?? Infinity) ||
        (a.problem.column ?? 0) - (b.problem.column ?? 0) ||
        a.index - b.index,
    )
    .map((entry) => entry.problem);
}
