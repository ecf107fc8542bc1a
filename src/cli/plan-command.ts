import { ChannelUnavailableError, isChannel } from "../engine/bundle/channel.ts";
import { RequestShapeError } from "../engine/evaluation/request-shape.ts";
import { PlanRequestError } from "../engine/plan/plan-request.ts";
import { isJsonObject } from "../engine/value/json-access.ts";
import type { JsonObject, JsonValue } from "../engine/value/json-value.ts";
import { parseJson } from "../engine/value/parse-json.ts";
import { answerPlan } from "../plans/plan-answer.ts";
import { PlanQueryOptionsError } from "../plans/plan-query-options.ts";
import { formatProblem } from "./check-report/text-report.ts";
import { parseCommandArguments } from "./command-arguments.ts";
import { commandPath, workingDirectory, type CommandIo } from "./command-io.ts";
import { loadEvaluateRules, RulesetChoiceError } from "./evaluate-rules.ts";
import { InputFileError } from "./input-file.ts";
import { operatorsOption } from "./operators-option.ts";
import { UsageError } from "./usage-error.ts";

/** The options whose value is a JSON object of the request, and its member. */
const JSON_OPTIONS = {
  "--actor": "actor",
  "--ctx": "ctx",
  "--original": "original",
  "--columns": "columns",
  "--column-types": "columnTypes",
} as const;

/**
 * `rule-server plan RULES --entity E --operation O [--ruleset ID] [--actor JSON] [--ctx JSON]
 * [--original JSON] [--channel client|server] [--want allow|deny|rule:ID] [--dialect sqlite|postgresql]
 * [--columns JSON] [--column-types JSON]`: the plan `POST /plans` answers for the same request, against the rules
 * `evaluate` loads (a bundle, a source, or a directory), printed as JSON.
 */
export async function runPlanCommand(args: readonly string[], io: CommandIo): Promise<number> {
  const parsed = parseCommandArguments("plan", args, {
    options: [
      "--entity",
      "--operation",
      "--ruleset",
      "--channel",
      "--want",
      "--dialect",
      "--operators",
      ...Object.keys(JSON_OPTIONS),
    ],
  });
  const [rulesPath, ...extra] = parsed.positional;
  if (rulesPath === undefined) throw new UsageError("plan: name the rules: a bundle, a ruleset source or a directory");
  if (extra.length > 0) throw new UsageError(`plan: one rules path, not ${parsed.positional.join(" ")}`);
  const request: JsonObject = {};
  for (const option of ["--entity", "--operation"] as const) {
    const value = parsed.options.get(option);
    if (value === undefined) throw new UsageError(`plan: ${option} is required`);
    request[option.slice(2)] = value;
  }
  const ruleset = parsed.options.get("--ruleset");
  if (ruleset !== undefined) request.ruleset = ruleset;
  for (const [option, member] of Object.entries(JSON_OPTIONS)) {
    const text = parsed.options.get(option);
    if (text === undefined) continue;
    const value = parseJson(text);
    if (!value.ok || !isJsonObject(value.value))
      throw new UsageError(`plan: ${option} takes a JSON object, not ${text}`);
    request[member] = value.value;
  }
  const want = parsed.options.get("--want");
  if (want !== undefined) request.want = wantOf(want);
  const dialect = parsed.options.get("--dialect");
  if (dialect !== undefined) request.dialect = dialect;
  const channel = parsed.options.get("--channel");
  if (channel !== undefined && !isChannel(channel))
    throw new UsageError('plan: --channel must be "client" or "server"');
  try {
    const loaded = loadEvaluateRules(
      commandPath(io, rulesPath),
      undefined,
      operatorsOption("plan", parsed.options.get("--operators")),
    );
    if (!loaded.ok) {
      await io.stderr.write(
        loaded.problems.map((problem) => `${formatProblem(problem, workingDirectory(io))}\n`).join(""),
      );
      return failure(io, loaded.message);
    }
    const picked = loaded.rules.pick({ ...request, data: {} });
    const answer = answerPlan(picked.ruleset, request, channel);
    await io.stdout.write(`${JSON.stringify(answer, null, 2)}\n`);
    return 0;
  } catch (error) {
    if (
      error instanceof InputFileError ||
      error instanceof PlanRequestError ||
      error instanceof PlanQueryOptionsError ||
      error instanceof RequestShapeError ||
      error instanceof ChannelUnavailableError ||
      error instanceof RulesetChoiceError
    )
      // The request is made of options here: the member evaluate asks for is an option.
      return failure(
        io,
        `${error.code}: ${error.message.replace('add a "ruleset" member', "name one with --ruleset")}`,
      );
    throw error;
  }
}

/** `allow`, `deny`, or `rule:<id>` for the condition under which that rule fires. */
function wantOf(text: string): JsonValue {
  if (text === "allow" || text === "deny") return text;
  if (text.startsWith("rule:") && text.length > 5) return { rule: text.slice(5) };
  throw new UsageError(`plan: --want takes allow, deny or rule:<id>, not ${text}`);
}

async function failure(io: CommandIo, message: string): Promise<number> {
  await io.stderr.write(`rule-server plan: ${message}\n`);
  return 1;
}
