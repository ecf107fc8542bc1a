/**
 * Loads each source and evaluates each job with whichever build of the browser module it is
 * given: the built dist/browser/rule-cascade.js in Chromium, the TypeScript source under Bun.
 * Both sides run this same file (served to the page transpiled), so any difference comes from
 * the module itself.
 */
import type * as BrowserModule from "../../../src/browser/rule-cascade.ts";

export interface Jobs {
  readonly sources: BrowserModule.JsonValue[];
  readonly jobs: {
    readonly source: number;
    readonly channel?: BrowserModule.Channel;
    readonly request: BrowserModule.JsonValue;
    readonly explain?: BrowserModule.ExplainMode;
    readonly schemaEnforcement?: BrowserModule.SchemaEnforcement;
    /** A plan job: the request (without data) planned for this, and its condition as PostgreSQL and Prisma. */
    readonly plan?: BrowserModule.PlanWant;
  }[];
}

export type JobOutcome =
  | { result: BrowserModule.EvaluationResult }
  | { plan: BrowserModule.PlanResult; sql: unknown; prisma: unknown }
  | { error: DescribedError };

interface DescribedError {
  name?: string;
  code?: string;
  message?: string;
  problems?: unknown;
  warnings?: unknown;
}

export async function runJobs(
  api: typeof BrowserModule,
  options: BrowserModule.LoadOptions,
  { sources, jobs }: Jobs,
): Promise<JobOutcome[]> {
  const loaded: ({ ruleset: BrowserModule.Ruleset } | { error: DescribedError })[] = [];
  for (const source of sources) {
    try {
      loaded.push({ ruleset: await api.loadRuleset(source, options) });
    } catch (error) {
      loaded.push({ error: describeError(error) });
    }
  }
  return jobs.map((job) => {
    const entry = loaded[job.source]!;
    if ("error" in entry) return { error: entry.error };
    try {
      if (job.plan !== undefined) return planned(api, entry.ruleset, job);
      const options = {
        ...(job.explain === undefined ? {} : { explain: job.explain }),
        ...(job.schemaEnforcement === undefined ? {} : { schemaEnforcement: job.schemaEnforcement }),
      };
      return {
        result:
          Object.keys(options).length === 0
            ? entry.ruleset.evaluate(job.request, job.channel)
            : entry.ruleset.evaluate(job.request, job.channel, options),
      };
    } catch (error) {
      return { error: describeError(error) };
    }
  });
}

/** A plan job's outcome: the plan, and its condition translated by the module's own translations. */
function planned(api: typeof BrowserModule, ruleset: BrowserModule.Ruleset, job: Jobs["jobs"][number]): JobOutcome {
  const plan = ruleset.plan(
    { ...(job.request as Record<string, BrowserModule.JsonValue>), want: job.plan! },
    job.channel,
  );
  if (plan.condition === undefined) return { plan, sql: null, prisma: null };
  const translated = (value: unknown): unknown =>
    value instanceof api.PlanNotTranslatableError ? { error: describeError(value) } : value;
  const columns = { "/amount": "amount", "/quantity": "quantity" };
  return {
    plan,
    sql: translated(api.sqlWhere(plan.condition, { dialect: "postgresql", columns })),
    prisma: translated(api.prismaWhere(plan.condition, { columns })),
  };
}

function describeError(error: unknown): DescribedError {
  const { name, code, message, problems, warnings } = error as DescribedError;
  return { name, code, message, problems, warnings };
}

/** Fetches the jobs, runs them and posts the outcomes (or why it could not) to the test as `name`. */
export async function reportJobs(
  api: typeof BrowserModule,
  options: BrowserModule.LoadOptions,
  name: string,
): Promise<void> {
  const report = (value: unknown): Promise<Response> =>
    fetch(`/report/${name}`, { method: "POST", body: JSON.stringify(value) });
  try {
    const jobs = (await (await fetch("/jobs.json")).json()) as Jobs;
    await report(await runJobs(api, options, jobs));
  } catch (error) {
    await report({ failed: String((error as Error)?.stack ?? error) });
  }
}
