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
  /**
   * The member of a ruleset that led to a problem placed in another file (an entity's `$ref` for
   * a problem inside its schema file): located, it is `referencedAt`, and the message ends by
   * naming its file, line and column.
   */
  readonly referencedFrom?: ProblemPlace;
  /** For a name defined twice, its first definition: located, it is `firstDefinedAt`, and the message ends by naming it. */
  readonly firstDefinition?: ProblemPlace;
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

/** A problem with its place turned into file, line and column; the other members it had are kept. */
export type Located<Problem extends PlacedProblem> = Omit<Problem, "place" | "referencedFrom" | "firstDefinition"> &
  LoadProblem;

/**
 * Plain load problems with file, line and column where the place is known. Files keep the order
 * they first appear in (a parent's problems before its child's); within a file, problems are in
 * the order of their lines.
 */
export function locateProblems<Problem extends PlacedProblem>(
  problems: readonly Problem[],
  sources: DocumentSources | undefined,
): Located<Problem>[] {
  const locate = (place: ProblemPlace | undefined): { file: string; line?: number; column?: number } | undefined => {
    const source = place === undefined ? undefined : sources?.(place.document);
    return place === undefined || source === undefined
      ? undefined
      : { file: source.file, ...source.locate(place.path, place.part) };
  };
  const located = problems.map(({ place, referencedFrom, firstDefinition, ...placed }): Located<Problem> => {
    const at = locate(place);
    const problem = withFirstDefinition(placed, at?.file, locate(firstDefinition));
    const reference = locate(referencedFrom);
    if (reference?.line === undefined) return { ...problem, ...at };
    const referencedAt = { file: reference.file, line: reference.line, column: reference.column };
    return {
      ...problem,
      message: `${problem.message} (referenced at ${fileName(reference.file)}:${reference.line}:${reference.column})`,
      ...at,
      referencedAt,
    };
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

/** A problem with where its name was first defined, when that is known: `(first defined at line 12)`, or `in base.ruleset.yaml at line 12` for another file. */
function withFirstDefinition<Problem extends LoadProblem>(
  problem: Problem,
  file: string | undefined,
  first: { file: string; line?: number; column?: number } | undefined,
): Problem {
  if (first?.line === undefined) return problem;
  const where = first.file === file ? `at line ${first.line}` : `in ${fileName(first.file)} at line ${first.line}`;
  const firstDefinedAt = {
    file: first.file,
    line: first.line,
    ...(first.column === undefined ? {} : { column: first.column }),
  };
  return { ...problem, message: `${problem.message} (first defined ${where})`, firstDefinedAt };
}

/** The last segment of a path, slash or backslash separated (the compiler has no path API). */
function fileName(file: string): string {
  return file.slice(Math.max(file.lastIndexOf("/"), file.lastIndexOf("\\")) + 1);
}
