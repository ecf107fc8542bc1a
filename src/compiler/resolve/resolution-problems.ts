import { LoadError } from "../../engine/bundle/load-problem.ts";
import type { PlacedProblem, ProblemPlace } from "../problems/problem-place.ts";

/**
 * The problems of resolution steps 3 to 8, gathered as they are found: a step goes on past a
 * mistake (leaving out what is wrong), so that an author sees every problem of a document at once
 * rather than one per run.
 */
export class ResolutionProblems {
  private readonly found: PlacedProblem[] = [];

  report(
    code: string,
    message: string,
    place: ProblemPlace,
    options: { readonly rule?: string; readonly firstDefinition?: ProblemPlace } = {},
  ): void {
    this.found.push({
      code,
      message,
      ...(options.rule === undefined ? {} : { rule: options.rule }),
      place,
      ...(options.firstDefinition === undefined ? {} : { firstDefinition: options.firstDefinition }),
    });
  }

  /** Throws a LoadError with every problem reported, when there is one. */
  throwIfAny(): void {
    if (this.found.length > 0) throw new LoadError(this.found);
  }
}
