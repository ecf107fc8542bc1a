import type { PlanCondition } from "../engine/plan/plan-condition.ts";

/**
 * A node of a plan's condition that a translation (SQL, Prisma) cannot express exactly, with the
 * node and why. Translations return it rather than an approximate query: the caller evaluates
 * the rows itself, or reports it.
 */
export class PlanNotTranslatableError extends Error {
  readonly code = "PLAN_NOT_TRANSLATABLE" as const;
  override readonly name = "PlanNotTranslatableError";
  constructor(
    message: string,
    readonly node: PlanCondition,
  ) {
    super(message);
  }
}

/** Runs a translation that throws PlanNotTranslatableError at the first node it cannot express, returning the error instead. */
export function untranslatableAsValue<T>(translate: () => T): T | PlanNotTranslatableError {
  try {
    return translate();
  } catch (error) {
    if (error instanceof PlanNotTranslatableError) return error;
    throw error;
  }
}
