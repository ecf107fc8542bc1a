import type { LoadOptions } from "../browser/rule-cascade.ts";
import type { EvaluationRequest, EvaluationResult, Explanation } from "./wire-types.ts";

/** The manifest a ruleset is rendered for: `client` is public, `server` needs the token. */
export type Channel = "client" | "server";

/** `?explain=`: `rules` says what each rule did, `full` adds the value of every expression. */
export type ExplainMode = "rules" | "full";

export interface ClientOptions {
  /** The rule server's URL; a path is kept (`https://host/rules`). In a page, a path alone (`/rule-server`) is relative to the page. */
  readonly baseUrl: string | URL;
  /**
   * The bearer token for evaluations and server manifests; a function is asked before each call
   * that needs it (a token that rotates). Never sent to public endpoints.
   */
  readonly token?: string | (() => string | Promise<string>);
  /** The fetch to use: the platform's by default, looked up at each call. */
  readonly fetch?: FetchFunction;
}

/** What the client needs of `fetch` (a platform's own, or one that adds headers, retries or logs). */
export type FetchFunction = (input: URL, init: RequestInit) => Promise<Response>;

export interface CallOptions {
  readonly signal?: AbortSignal;
}

export interface EvaluateOptions extends CallOptions {
  readonly explain?: ExplainMode;
}

/** An evaluation asked with `explain`: its result always has the explanation. */
export type ExplainedEvaluationResult = EvaluationResult & { explanation: Explanation };

/**
 * One item of a batch: members of an evaluation request, each of which may come from the batch's
 * defaults instead, and an `id` the answer echoes.
 */
export type BatchEvaluationItem = Partial<EvaluationRequest> & { id?: string | number | null };

/** Members every item of a batch has unless it has its own. */
export type BatchDefaults = Partial<EvaluationRequest>;

export interface RulesetListOptions extends CallOptions {
  /** Only rulesets whose scope begins with this path (`acme/payments`, `organization:payments`). */
  readonly scope?: string;
}

export interface RulesetOptions extends CallOptions, LoadOptions {}
