import type { CustomOperators } from "../expression/custom-operators.ts";
import { NO_CUSTOM_OPERATORS } from "../expression/custom-operators.ts";
import { evaluateCheckedRequest, evaluateRequest } from "../evaluation/evaluate-request.ts";
import type { EvaluationResult, EvaluationTally } from "../evaluation/evaluation-result.ts";
import { EvaluationPlan } from "../evaluation/evaluation-plan.ts";
import { checkRequestShape } from "../evaluation/request-shape.ts";
import type { ExplainMode } from "../explanation/explanation.ts";
import { entitiesWithoutSchemaIn } from "../schema/manifest-schemas.ts";
import { RequestFit, RequestMisfitError, type RequestWarning, type SchemaEnforcement } from "../schema/request-fit.ts";
import { explainCheckedRequest, tracedPlan, type TracedPlan } from "../explanation/explain-request.ts";
import type { JsonObject, JsonValue } from "../value/json-value.ts";
import { ChannelUnavailableError, type Channel } from "./channel.ts";
import { readBundle, readManifest, type ReadRuleset } from "./read-bundle.ts";
import { planRequest } from "../plan/plan-ruleset.ts";
import type { PlanResult } from "../plan/plan-result.ts";

/** How a host lets the engine run. */
export interface EngineOptions {
  /**
   * Whether the engine may compile rules to JavaScript functions (faster; needs
   * `new Function`). Default true; a page whose Content-Security-Policy forbids `eval` passes false.
   */
  readonly codeGeneration?: boolean;
}

/**
 * A ruleset an evaluator holds: a bundle (both channels) or one manifest (that channel only),
 * with a plan per channel built once, on first use.
 */
/** How one evaluation is asked for. */
export interface EvaluateOptions {
  /** Adds `explanation` to the result: `rules` (what each rule did) or `full` (with every expression's values). */
  readonly explain?: ExplainMode;
  /**
   * Checks the request against the ruleset first: `warn` adds `warnings` to the result, `reject`
   * throws RequestMisfitError for a request that does not fit. Default `off`.
   */
  readonly schemaEnforcement?: SchemaEnforcement;
}

export class LoadedRuleset {
  private readonly plans = new Map<Channel, EvaluationPlan>();
  private readonly tracedPlans = new Map<Channel, TracedPlan>();
  /** How requests fit each channel's plan (schema enforcement), made with the plan's first check. */
  private readonly requestFits = new Map<EvaluationPlan, RequestFit>();

  private constructor(
    private readonly read: ReadRuleset,
    private readonly operators: CustomOperators,
    private readonly options: EngineOptions,
  ) {}

  /** Throws LoadError (BUNDLE_UNSUPPORTED, BUNDLE_INVALID) for a bundle that cannot be used. */
  static fromBundle(
    bundle: JsonValue,
    operators: CustomOperators = NO_CUSTOM_OPERATORS,
    options: EngineOptions = {},
  ): LoadedRuleset {
    return new LoadedRuleset(readBundle(bundle), operators, options);
  }

  /** Throws LoadError (MANIFEST_INVALID) for a manifest that cannot be used. */
  static fromManifest(
    manifest: JsonValue,
    operators: CustomOperators = NO_CUSTOM_OPERATORS,
    options: EngineOptions = {},
  ): LoadedRuleset {
    return new LoadedRuleset(readManifest(manifest), operators, options);
  }

  get id(): string {
    return this.read.id;
  }
  get version(): string {
    return this.read.version;
  }
  get checksum(): string {
    return this.read.checksum;
  }

  /** The channels this ruleset has, sorted. */
  get channels(): Channel[] {
    return (["client", "server"] as const).filter((channel) => this.read.manifests[channel] !== undefined);
  }

  /** The server channel when there is one, otherwise the channel the ruleset has. */
  resolveChannel(requested: Channel | undefined): Channel {
    const channel = requested ?? (this.read.manifests.server ? "server" : this.channels[0]!);
    if (!this.read.manifests[channel]) {
      throw new ChannelUnavailableError(`ruleset ${this.id} was read from one manifest and has no ${channel} channel`);
    }
    return channel;
  }

  manifest(channel?: Channel): JsonObject {
    return this.read.manifests[this.resolveChannel(channel)]!;
  }

  evaluationPlan(channel?: Channel): EvaluationPlan {
    const resolved = this.resolveChannel(channel);
    let plan = this.plans.get(resolved);
    if (!plan) {
      plan = new EvaluationPlan(
        this.read.manifests[resolved]!,
        resolved,
        this.operators,
        this.options.codeGeneration ?? true,
      );
      this.plans.set(resolved, plan);
    }
    return plan;
  }

  /**
   * The rows a decision would allow (DECISIONS.md "Plans"): the request without `data`, which is
   * left unknown, and `want`. Throws PlanRequestError for a malformed request.
   */
  plan(request: JsonValue, channel?: Channel): PlanResult {
    return planRequest(this.evaluationPlan(channel), request);
  }

  /**
   * Builds the plan of every channel now (rules and function bodies prepared, literal patterns
   * compiled) rather than on the first evaluation: for hosts that evaluate under a deadline.
   */
  prepare(): void {
    for (const channel of this.channels) this.evaluationPlan(channel);
  }

  /** Evaluates a request (specification section 8); throws RequestShapeError for a malformed one. */
  evaluate(request: JsonValue, channel?: Channel, options: EvaluateOptions = {}): EvaluationResult {
    if (options.explain === undefined && (options.schemaEnforcement ?? "off") === "off")
      return evaluateRequest(this.evaluationPlan(channel), request);
    checkRequestShape(request);
    return this.evaluateChecked(request as JsonObject, channel, undefined, options);
  }

  /**
   * Evaluates a request the host has already checked with `requestShapeProblem`, as the HTTP
   * server does before it looks the ruleset up; the shape is not walked a second time. A
   * `tally` receives how many rules took part.
   */
  evaluateChecked(
    request: JsonObject,
    channel?: Channel,
    tally?: EvaluationTally,
    options: EvaluateOptions = {},
  ): EvaluationResult {
    const enforcement = options.schemaEnforcement ?? "off";
    if (options.explain === undefined && enforcement === "off")
      return evaluateCheckedRequest(this.evaluationPlan(channel), request, tally);
    const resolved = this.resolveChannel(channel);
    const plan = this.evaluationPlan(resolved);
    const warnings = enforcement === "off" ? undefined : this.requestFit(plan).warnings(request);
    if (enforcement === "reject" && warnings!.length > 0) throw new RequestMisfitError(warnings!);
    const result =
      options.explain === undefined
        ? evaluateCheckedRequest(plan, request, tally)
        : explainCheckedRequest(request, options.explain, plan, () => this.tracedPlan(resolved), tally);
    if (warnings !== undefined && warnings.length > 0) result.warnings = [...warnings];
    return result;
  }

  /**
   * How a shape-checked request does not fit this ruleset: an entity it does not declare, an
   * operation no rule of the entity names, data or original that the entity's schema refuses. A
   * request that fits (nearly every one) gets one shared empty list: a host that checks apart from
   * evaluating (the server) then evaluates as with enforcement off, allocating nothing more.
   */
  requestWarnings(request: JsonObject, channel?: Channel): readonly RequestWarning[] {
    return this.requestFit(this.evaluationPlan(channel)).warnings(request);
  }

  private requestFit(plan: EvaluationPlan): RequestFit {
    let fit = this.requestFits.get(plan);
    if (fit === undefined) this.requestFits.set(plan, (fit = new RequestFit(plan)));
    return fit;
  }

  /** The declared entities this ruleset has no schema for (a bundle compiled without them): only their names are checked. */
  entitiesWithoutSchema(channel?: Channel): string[] {
    return entitiesWithoutSchemaIn(this.read.manifests[this.resolveChannel(channel)]!);
  }

  private tracedPlan(channel: Channel): TracedPlan {
    let traced = this.tracedPlans.get(channel);
    if (!traced)
      this.tracedPlans.set(
        channel,
        (traced = tracedPlan(
          this.read.manifests[channel]!,
          channel,
          this.operators,
          this.options.codeGeneration ?? true,
        )),
      );
    return traced;
  }

  /** The custom operators this ruleset's manifests need, sorted. */
  requiredOperators(): string[] {
    const names = new Set<string>();
    for (const manifest of Object.values(this.read.manifests)) {
      if (Array.isArray(manifest.operators))
        for (const name of manifest.operators) if (typeof name === "string") names.add(name);
    }
    return [...names].sort();
  }

  /** The custom operators this ruleset needs that the host has not registered, sorted. */
  missingOperators(): string[] {
    return this.requiredOperators().filter((name) => !this.operators.has(name));
  }
}
