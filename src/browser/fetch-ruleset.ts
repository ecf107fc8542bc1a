import type { JsonObject, JsonValue } from "../engine/value/json-value.ts";
import { loadRuleset, type LoadOptions, type Ruleset } from "./ruleset.ts";

export interface FetchOptions extends LoadOptions {
  /** The fetch to use; the page's own by default. */
  readonly fetch?: typeof fetch;
  readonly signal?: AbortSignal;
}

/** A rule server gave another answer than the one asked for (a manifest, or 304), or could not be reached. */
export class FetchRulesetError extends Error {
  readonly code = "FETCH_FAILED" as const;
  override readonly name = "FetchRulesetError";
  constructor(
    message: string,
    /** The HTTP status, or 0 when no answer came. */
    readonly status: number,
    /** The answer's problem document (RFC 9457), when it sent one. */
    readonly problem?: JsonObject,
  ) {
    super(message);
  }

  /** The error for an unwanted answer: its status, and its problem document when it has one. */
  static async answered(what: string, response: Response): Promise<FetchRulesetError> {
    let problem: JsonObject | undefined;
    try {
      const body = (await response.json()) as JsonValue;
      if (typeof body === "object" && body !== null && !Array.isArray(body) && typeof body.title === "string")
        problem = body;
    } catch {
      // Not a problem document: the status says enough.
    }
    return new FetchRulesetError(
      `${what} answered ${response.status}${problem ? `: ${String(problem.title)}` : ""}`,
      response.status,
      problem,
    );
  }
}

interface KeptManifest {
  readonly etag: string | null;
  readonly manifest: JsonValue;
  readonly operators: LoadOptions["operators"];
  readonly codeGeneration: boolean;
  readonly ruleset: Ruleset;
}

/** The last manifest fetched from each address, kept for revalidation. */
const kept = new Map<string, KeptManifest>();

/**
 * Fetches a ruleset's client manifest from a rule server and loads it. The manifest is kept: a
 * later call asks with `If-None-Match`, so an unchanged manifest costs a 304 and is not read or
 * loaded again, and a changed one (a reload on the server) is picked up.
 */
export async function fetchRuleset(serverUrl: string | URL, id: string, options: FetchOptions = {}): Promise<Ruleset> {
  const address = new URL(`rulesets/${encodeURIComponent(id)}/manifest?channel=client`, withTrailingSlash(serverUrl))
    .href;
  const previous = kept.get(address);
  const headers: Record<string, string> = { Accept: "application/json" };
  if (previous?.etag) headers["If-None-Match"] = previous.etag;
  let response: Response;
  try {
    // Our own If-None-Match makes the browser pass a 304 through instead of answering from its cache.
    response = await (options.fetch ?? fetch)(address, { headers, signal: options.signal ?? null });
  } catch (error) {
    throw new FetchRulesetError(
      `${address} could not be fetched: ${error instanceof Error ? error.message : String(error)}`,
      0,
    );
  }
  if (response.status === 304 && previous) {
    if (previous.operators === options.operators && previous.codeGeneration === (options.codeGeneration ?? false))
      return previous.ruleset;
    return keep(address, previous.etag, previous.manifest, options);
  }
  if (response.status !== 200) throw await FetchRulesetError.answered(address, response);
  return keep(address, response.headers.get("ETag"), (await response.json()) as JsonValue, options);
}

async function keep(
  address: string,
  etag: string | null,
  manifest: JsonValue,
  options: FetchOptions,
): Promise<Ruleset> {
  const ruleset = await loadRuleset(manifest, options);
  kept.set(address, {
    etag,
    manifest,
    operators: options.operators,
    codeGeneration: options.codeGeneration ?? false,
    ruleset,
  });
  return ruleset;
}

/** The server's URL as a base that keeps its path (`https://host/rules` → `https://host/rules/`). */
function withTrailingSlash(serverUrl: string | URL): string {
  const text = String(serverUrl);
  return text.endsWith("/") ? text : `${text}/`;
}
