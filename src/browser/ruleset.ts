import type { Channel } from "../engine/bundle/channel.ts";
import { isChannel } from "../engine/bundle/channel.ts";
import { LoadedRuleset } from "../engine/bundle/loaded-ruleset.ts";
import { LoadError } from "../engine/bundle/load-problem.ts";
import type { EvaluationResult } from "../engine/evaluation/evaluation-result.ts";
import { PlanRequestError } from "../engine/plan/plan-request.ts";
import type { PlanResult } from "../engine/plan/plan-result.ts";
import { REQUEST_REFUSALS, RequestShapeError } from "../engine/evaluation/request-shape.ts";
import { customOperatorsFrom } from "../engine/expression/custom-operators.ts";
import { isJsonObject } from "../engine/value/json-access.ts";
import type { JsonValue } from "../engine/value/json-value.ts";
import { hasNonFiniteNumber, parseJson } from "../engine/value/parse-json.ts";
import { EXPLAIN_REFUSAL, isExplainMode, type ExplainMode } from "../engine/explanation/explanation.ts";
import { isSchemaEnforcement, type SchemaEnforcement } from "../engine/schema/request-warning.ts";

/** A custom operator: a synchronous, pure function of plain JSON values that returns a JSON value. */
export type CustomOperator = (...args: JsonValue[]) => unknown;

export interface LoadOptions {
  /** Custom operators by `x-` name. */
  readonly operators?: Readonly<Record<string, CustomOperator>>;
  /**
   * Lets the engine compile the rules' expressions to JavaScript functions (`new Function`),
   * which evaluates faster. Off by default: a page whose Content-Security-Policy has no
   * 'unsafe-eval' would refuse it (and report the refusal); results are the same either way.
   */
  readonly codeGeneration?: boolean;
}

/**
 * A ruleset loaded in the page: a bundle (both channels) or one manifest (its own channel).
 * `evaluate` answers what `POST /evaluations` answers for the same request and channel.
 */
export interface Ruleset {
  readonly id: string;
  readonly version: string;
  readonly checksum: string;
  /** The channels this ruleset can evaluate: both for a bundle, the manifest's own for a manifest. */
  readonly channels: readonly Channel[];
  /** The custom operators the ruleset uses that were not registered; their rules fail closed. */
  readonly missingOperators: readonly string[];
  /**
   * Evaluates a request, synchronously. The channel is the argument, else the request's `channel`
   * member, else the bundle's server channel or the manifest's own. A malformed request throws
   * RequestShapeError whose message is the title of the server's 400 answer. `explain` adds the
   * same `explanation` the server gives for `?explain=rules|full`.
   */
  evaluate(request: JsonValue, channel?: Channel, options?: EvaluateOptions): EvaluationResult;
  /**
   * The condition on `data` under which a request's decision gives `want` (`allow`, `deny`, or
   * `{rule}`), as `POST /plans` answers without `dialect`: the request has no `data`. A malformed
   * request throws PlanRequestError whose message is the title of the server's 400 answer.
   */
  plan(request: JsonValue, channel?: Channel): PlanResult;
}

export interface EvaluateOptions {
  /** `rules`: what each rule did; `full`: also the value of every expression evaluated. */
  readonly explain?: ExplainMode;
  /**
   * Checks the request against the ruleset (the entity, the operation, and the data against the
   * entity's schema when the manifest carries it) as the server does: `warn` adds `warnings`
   * ("unknown field" while the user types), `reject` throws RequestMisfitError. Default `off`.
   */
  readonly schemaEnforcement?: SchemaEnforcement;
}

/** The engine's LoadedRuleset behind the page's interface, which keeps engine internals out of the module's types. */
class PageRuleset implements Ruleset {
  readonly #loaded: LoadedRuleset;
  readonly missingOperators: readonly string[];

  constructor(loaded: LoadedRuleset) {
    this.#loaded = loaded;
    this.missingOperators = loaded.missingOperators();
  }

  get id(): string {
    return this.#loaded.id;
  }
  get version(): string {
    return this.#loaded.version;
  }
  get checksum(): string {
    return this.#loaded.checksum;
  }
  get channels(): readonly Channel[] {
    return this.#loaded.channels;
  }

  evaluate(request: JsonValue, channel?: Channel, options: EvaluateOptions = {}): EvaluationResult {
    const chosen = channelOf(request, channel, (message) => new RequestShapeError(message));
    if (options.explain !== undefined && !isExplainMode(options.explain)) throw new RequestShapeError(EXPLAIN_REFUSAL);
    if (options.schemaEnforcement !== undefined && !isSchemaEnforcement(options.schemaEnforcement))
      throw new RequestShapeError("'schemaEnforcement' must be off, warn or reject");
    return this.#loaded.evaluate(request, chosen, options);
  }

  plan(request: JsonValue, channel?: Channel): PlanResult {
    return this.#loaded.plan(
      request,
      channelOf(request, channel, (message) => new PlanRequestError(message)),
    );
  }
}

/**
 * The channel a page's request is answered on (the argument, else the request's `channel`), once
 * the request is what the server would take: an object, a known channel, no number JSON cannot carry
 * (the server never sees NaN or an infinity; it refuses 1e999 this way). `refused` makes the error.
 */
function channelOf(
  request: JsonValue,
  channel: Channel | undefined,
  refused: (message: string) => Error,
): Channel | undefined {
  if (!isJsonObject(request)) throw refused(REQUEST_REFUSALS.notAnObject);
  const chosen = channel ?? request.channel ?? undefined;
  if (chosen !== undefined && !isChannel(chosen)) throw refused(REQUEST_REFUSALS.channel);
  if (hasNonFiniteNumber(request)) throw refused(REQUEST_REFUSALS.numberTooLarge);
  return chosen;
}

/**
 * Loads a bundle or a manifest, as a value or as JSON text. Bad input rejects with LoadError and
 * the code the server reports: BUNDLE_UNSUPPORTED, BUNDLE_INVALID or MANIFEST_INVALID.
 */
export async function loadRuleset(manifestOrBundle: JsonValue, options: LoadOptions = {}): Promise<Ruleset> {
  const document = typeof manifestOrBundle === "string" ? parsedDocument(manifestOrBundle) : manifestOrBundle;
  const operators = customOperatorsFrom(options.operators);
  const isBundle = isJsonObject(document) && document.ruleCascadeBundle !== undefined;
  const engine = { codeGeneration: options.codeGeneration ?? false };
  return new PageRuleset(
    isBundle
      ? LoadedRuleset.fromBundle(document, operators, engine)
      : LoadedRuleset.fromManifest(document, operators, engine),
  );
}

function parsedDocument(text: string): JsonValue {
  const parsed = parseJson(text);
  // The parser's own words differ between JavaScript engines; the reason does not.
  const reason = parsed.ok
    ? ""
    : parsed.reason === "number-too-large"
      ? REQUEST_REFUSALS.numberTooLarge
      : "it is not valid JSON";
  if (!parsed.ok)
    throw new LoadError([{ code: "MANIFEST_INVALID", message: `the manifest or bundle cannot be read: ${reason}` }]);
  return parsed.value;
}
