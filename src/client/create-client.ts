import type { Ruleset } from "../browser/rule-cascade.ts";
import type {
  BatchDefaults,
  BatchEvaluationItem,
  CallOptions,
  Channel,
  ClientOptions,
  EvaluateOptions,
  ExplainedEvaluationResult,
  ExplainMode,
  FetchFunction,
  RulesetListOptions,
  RulesetOptions,
} from "./client-types.ts";
import { RuleServerError, serverProblemCode } from "./rule-server-error.ts";
import { callServer, type CallContext } from "./server-call.ts";
import type {
  BatchEvaluationResult,
  BatchItemResult,
  EvaluationRequest,
  EvaluationResult,
  Manifest,
  PlanRequest,
  PlanResult,
  Problem,
  RulesetEntry,
  RulesetList,
} from "./wire-types.ts";

/** A rule server's HTTP API, typed by its OpenAPI description. Every failure is a RuleServerError. */
export interface RuleServerClient {
  /** The server's URL every call is relative to, absolute and ending in `/`. */
  readonly baseUrl: string;
  /** `POST /evaluations` (token): the result the server computes; `explain` adds why. */
  evaluate(
    request: EvaluationRequest,
    options: EvaluateOptions & { readonly explain: ExplainMode },
  ): Promise<ExplainedEvaluationResult>;
  evaluate(request: EvaluationRequest, options?: EvaluateOptions): Promise<EvaluationResult>;
  /**
   * `POST /evaluations/batch` (token): each item merged over `defaults` and answered in its place,
   * `{id?, status: 200, result}` or `{id?, status, problem}`; one bad item never fails the others.
   */
  evaluateBatch(
    items: readonly BatchEvaluationItem[],
    defaults?: BatchDefaults | null,
    options?: EvaluateOptions,
  ): Promise<BatchItemResult[]>;
  /**
   * `POST /plans` (token): the condition on data under which a decision gives what is wanted (and,
   * with `dialect`, a WHERE clause); `exact: false` names the rules to evaluate per row.
   */
  plan(request: PlanRequest, options?: CallOptions): Promise<PlanResult>;
  /** `GET /rulesets` (public): the served rulesets, sorted by id. */
  rulesets(options?: RulesetListOptions): Promise<RulesetEntry[]>;
  /** `GET /rulesets/{id}/manifest` for a channel: `client` (the default) is public, `server` needs the token. */
  manifest(id: string, channel?: Channel, options?: CallOptions): Promise<Manifest>;
  /**
   * The ruleset's client manifest, loaded by the engine to evaluate in process, as `fetchRuleset`
   * does: a later call revalidates it with `If-None-Match`, so an unchanged manifest costs a 304
   * and a reloaded one is picked up. The engine is imported on the first call, not before.
   */
  ruleset(id: string, options?: RulesetOptions): Promise<Ruleset>;
}

export function createClient(options: ClientOptions): RuleServerClient {
  const base = absoluteBase(options.baseUrl);
  // Looked up at each call, and called as a plain function: a page's fetch refuses another `this`.
  const platformFetch: FetchFunction = (input, init) => globalThis.fetch(input, init);
  const fetchFunction = options.fetch ?? platformFetch;
  const given = options.token;
  const context: CallContext = {
    base,
    fetch: fetchFunction,
    token: async () => (typeof given === "function" ? await given() : given),
  };
  return {
    baseUrl: base.href,
    evaluate: ((request: EvaluationRequest, evaluateOptions: EvaluateOptions = {}) =>
      callServer<EvaluationResult>(context, {
        method: "POST",
        path: `evaluations${explainQuery(evaluateOptions.explain)}`,
        body: request,
        authorized: true,
        signal: evaluateOptions.signal,
      })) as RuleServerClient["evaluate"],
    evaluateBatch: async (items, defaults, batchOptions = {}) => {
      const body = defaults === undefined || defaults === null ? { items } : { defaults, items };
      const answer = await callServer<BatchEvaluationResult>(context, {
        method: "POST",
        path: `evaluations/batch${explainQuery(batchOptions.explain)}`,
        body,
        authorized: true,
        signal: batchOptions.signal,
      });
      return answer.results;
    },
    plan: (request, callOptions = {}) =>
      callServer<PlanResult>(context, {
        method: "POST",
        path: "plans",
        body: request,
        authorized: true,
        signal: callOptions.signal,
      }),
    rulesets: async (listOptions = {}) => {
      const query = listOptions.scope === undefined ? "" : `?scope=${encodeURIComponent(listOptions.scope)}`;
      return (
        await callServer<RulesetList>(context, {
          method: "GET",
          path: `rulesets${query}`,
          authorized: false,
          signal: listOptions.signal,
        })
      ).rulesets;
    },
    manifest: (id, channel = "client", callOptions = {}) =>
      callServer<Manifest>(context, {
        method: "GET",
        path: `rulesets/${encodeURIComponent(id)}/manifest?channel=${encodeURIComponent(channel)}`,
        authorized: channel !== "client",
        signal: callOptions.signal,
      }),
    ruleset: async (id, rulesetOptions = {}) => {
      const { fetchRuleset, FetchRulesetError } = await import("../browser/rule-cascade.ts");
      try {
        // fetchRuleset's own type is the platform's fetch; it only ever calls it with a URL string and init.
        return await fetchRuleset(base, id, {
          ...rulesetOptions,
          fetch: ((input: string, init: RequestInit) => fetchFunction(new URL(input), init)) as typeof fetch,
        });
      } catch (error) {
        if (rulesetOptions.signal?.aborted) throw rulesetOptions.signal.reason ?? error;
        if (!(error instanceof FetchRulesetError)) throw error;
        const code = error.status === 0 ? "SERVER_UNREACHABLE" : serverProblemCode(error.status);
        throw new RuleServerError(code, error.message, error.status, error.problem as Problem | undefined, undefined, {
          cause: error,
        });
      }
    },
  };
}

function explainQuery(explain: ExplainMode | undefined): string {
  return explain === undefined ? "" : `?explain=${encodeURIComponent(explain)}`;
}

/** The base URL as an absolute URL ending in `/`, so that relative paths keep its own path. */
function absoluteBase(baseUrl: string | URL): URL {
  const text = String(baseUrl);
  const page = (globalThis as { location?: { href?: string } }).location?.href;
  try {
    return new URL(text.endsWith("/") ? text : `${text}/`, page);
  } catch {
    throw new RuleServerError(
      "BASE_URL_INVALID",
      `baseUrl ${JSON.stringify(text)} is not a URL${page === undefined ? " (outside a page it must be absolute)" : ""}`,
      0,
    );
  }
}
