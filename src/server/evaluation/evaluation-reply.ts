import type { ExplainMode } from "../../engine/explanation/explanation.ts";
import type { RequestWarning, SchemaEnforcement } from "../../engine/schema/request-fit.ts";
import type { LoadedRuleset } from "../../engine/bundle/loaded-ruleset.ts";
import type { EvaluationTally } from "../../engine/evaluation/evaluation-result.ts";
import { REQUEST_REFUSALS, requestShapeProblem } from "../../engine/evaluation/request-shape.ts";
import { isJsonObject } from "../../engine/value/json-access.ts";
import type { JsonObject, JsonValue } from "../../engine/value/json-value.ts";
import { parseJson } from "../../engine/value/parse-json.ts";
import { HttpError, problemBody } from "../http/http-error.ts";
import { requireVersion } from "../routes/ruleset-lookup.ts";
import { decisionRecordJson, recordLine, recordTime, type RecordTrace } from "../../records/decision-record.ts";
import type { RecordMask } from "../../records/record-mask.ts";

/**
 * The answer to one `POST /evaluations` body, ready to send. The whole of it (body checks, ruleset
 * lookup, evaluation, serialization) is computed by whichever thread evaluates, the event loop or a
 * worker, with this one function: both answer the same bytes, and with workers the event loop is
 * left with HTTP alone.
 */
export interface EvaluationReply {
  readonly status: number;
  /** The result JSON, or a problem+json body for any other status. */
  readonly body: string;
  /** For the log line: the ruleset the request names, once its body has passed the checks. */
  readonly ruleset?: string;
  /** For the log line and the metrics: what an evaluation that ran decided (status 200 only). */
  readonly summary?: EvaluationSummary;
  /** For the log line and the metrics: the codes of a request refused under schema enforcement `reject` (422). */
  readonly refusedWarnings?: readonly string[];
  /**
   * With decision records on: the record's line of an evaluation that ran (masked, newline
   * included), made whole by the thread that evaluated, so the event loop only writes it.
   */
  readonly record?: string;
}

/** The decision-log members of an evaluation, in the order the log line shows them. */
export interface EvaluationSummary {
  readonly ruleset: string;
  readonly version: string;
  readonly checksum: string;
  readonly entity: string;
  readonly operation: string;
  readonly decision: string;
  /** The codes of the findings, in the result's order. */
  readonly findings: readonly string[];
  /** How many rules took part (rules that target a type take part for any entity). */
  readonly rules: number;
  /** The codes of the request's warnings (schema enforcement `warn`), in order; absent when it fits. */
  readonly warnings?: readonly string[];
}

/** How a body is answered besides its content: the explanation asked for, and the schema enforcement. */
export interface AnswerOptions {
  readonly explain?: ExplainMode;
  readonly schemaEnforcement: SchemaEnforcement;
  /** Decision records are on: each evaluation's record is made where it ran, with this mask. */
  readonly recordMask?: RecordMask;
}

/** The options of each request under one enforcement, made once (the event loop's and each worker's). */
export function answerOptionsFor(
  schemaEnforcement: SchemaEnforcement,
  recordMask?: RecordMask,
): (explain: ExplainMode | undefined) => AnswerOptions {
  const records = recordMask === undefined ? {} : { recordMask };
  const plain: AnswerOptions = { schemaEnforcement, ...records };
  const explained = {
    rules: { explain: "rules", schemaEnforcement, ...records },
    full: { explain: "full", schemaEnforcement, ...records },
  } as const;
  return (explain) => (explain === undefined ? plain : explained[explain]);
}

/** The rulesets of the snapshot the request is evaluated against, by id. */
export type RulesetFinder = (id: string) => LoadedRuleset | undefined;

/** The evaluation options of an explained request (its schema check done apart), made once. */
const EXPLAINED = { rules: { explain: "rules" }, full: { explain: "full" } } as const;

/** Reused for every evaluation of this thread: evaluation is synchronous, one at a time. */
const tally: EvaluationTally = { rules: 0 };

/**
 * Order of checks after the token and the size (SERVER.md): the body is JSON, the server's own
 * members (`ruleset`, `version`, `channel`), the request shape every runtime checks, then the
 * ruleset and version, then the evaluation. `asker` is who asked, for its record (records on).
 */
/** Who asked, for a decision record: the request's id and, when it was authenticated, its caller. */
export interface RecordAsker {
  readonly requestId?: string;
  readonly caller?: string;
  /** The request's trace (its `traceparent`, or the server's span with tracing on). */
  readonly trace?: RecordTrace;
}

export function answerEvaluation(
  text: string,
  find: RulesetFinder,
  options: AnswerOptions,
  asker?: RecordAsker,
): EvaluationReply {
  const parsed = parseJson(text);
  if (!parsed.ok)
    return refusal(
      new HttpError(
        400,
        parsed.reason === "number-too-large" ? REQUEST_REFUSALS.numberTooLarge : "body is not valid JSON",
      ),
    );
  return answerRequest(parsed.value, find, options, asker, text);
}

/**
 * The answer to a request already read from JSON and free of numbers too large for a double:
 * the rest of `answerEvaluation`, which an item of a batch goes through as well, so that it is
 * answered exactly as the same request on its own. `asker` is the request's (a batch's, for
 * each of its items) and `received` the body's text, for its record (an item of a batch has no
 * text of its own).
 */
export function answerRequest(
  body: JsonValue,
  find: RulesetFinder,
  options: AnswerOptions,
  asker?: RecordAsker,
  received?: string,
): EvaluationReply {
  let ruleset: string | undefined;
  try {
    const request = checkedRequest(body);
    ruleset = request.ruleset as string;
    const version = (request.version as string | null | undefined) ?? undefined;
    const loaded = requireVersion(find(ruleset), ruleset, version, (found) => found.version);
    const channel = (request.channel as "server" | "client" | null | undefined) ?? "server";
    // The schema check first, apart: the evaluation itself then runs as it does with enforcement off.
    const warnings = options.schemaEnforcement === "off" ? undefined : loaded.requestWarnings(request, channel);
    if (warnings !== undefined && warnings.length > 0 && options.schemaEnforcement === "reject")
      throw new HttpError(422, "the request does not fit the ruleset", { members: { warnings } });
    const result =
      options.explain === undefined
        ? loaded.evaluateChecked(request, channel, tally)
        : loaded.evaluateChecked(request, channel, tally, EXPLAINED[options.explain]);
    if (warnings !== undefined && warnings.length > 0) result.warnings = [...warnings];
    const findings: string[] = new Array(result.findings.length);
    for (let index = 0; index < findings.length; index++) findings[index] = result.findings[index]!.code;
    const summary: EvaluationSummary = {
      ruleset,
      version: result.version,
      checksum: result.checksum,
      entity: request.entity as string,
      operation: request.operation as string,
      decision: result.decision,
      findings,
      rules: tally.rules,
      warnings: result.warnings?.map((warning) => warning.code),
    };
    const json = JSON.stringify(result);
    if (options.recordMask === undefined) return { status: 200, body: json, ruleset, summary };
    return {
      status: 200,
      body: json,
      ruleset,
      summary,
      record: recordLine(
        recordTime(),
        asker?.requestId ?? "",
        decisionRecordJson(request, result, channel, options.recordMask, received),
        asker?.caller,
        asker?.trace,
      ),
    };
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    return refusal(error, ruleset);
  }
}

/** The reply of a request refused with `error`; under `reject`, with the codes of the warnings that refused it. */
export function refusal(error: HttpError, ruleset?: string): EvaluationReply {
  const refused = error.options.members?.warnings as readonly RequestWarning[] | undefined;
  if (refused !== undefined)
    return {
      status: error.status,
      body: problemBody(error),
      ruleset,
      refusedWarnings: refused.map((warning) => warning.code),
    };
  return { status: error.status, body: problemBody(error), ruleset };
}

/** The error of an evaluation that failed for a reason of the server's own (a bug, never the request). */
export function evaluationFailed(message: string): HttpError {
  return new HttpError(500, "the evaluation failed", { detail: message });
}

/** The body as a request: the server's own members (`ruleset`, `version`, `channel`), then the shape every runtime checks. */
function checkedRequest(body: JsonValue): JsonObject {
  const request = withServerMembers(body);
  const problem = requestShapeProblem(request);
  if (problem !== undefined) throw new HttpError(400, problem);
  return request;
}

/** A body that is an object whose own members are well formed (`ruleset`, `version`, `channel`): evaluations' and plans'. */
export function withServerMembers(body: JsonValue): JsonObject {
  if (!isJsonObject(body)) throw new HttpError(400, REQUEST_REFUSALS.notAnObject);
  if (typeof body.ruleset !== "string") throw new HttpError(400, "'ruleset' must be a string");
  if (body.version !== undefined && body.version !== null && typeof body.version !== "string")
    throw new HttpError(400, "'version' must be a string");
  const channel = body.channel ?? "server";
  if (channel !== "server" && channel !== "client") throw new HttpError(400, REQUEST_REFUSALS.channel);
  return body;
}
