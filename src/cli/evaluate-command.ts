import { ChannelUnavailableError, isChannel, type Channel } from "../engine/bundle/channel.ts";
import type { EvaluateOptions } from "../engine/bundle/loaded-ruleset.ts";
import { LoadError } from "../engine/bundle/load-problem.ts";
import { RequestShapeError } from "../engine/evaluation/request-shape.ts";
import { isSchemaEnforcement, RequestMisfitError, SCHEMA_ENFORCEMENTS } from "../engine/schema/request-warning.ts";
import { parseJson } from "../engine/value/parse-json.ts";
import { formatProblem } from "./check-report/text-report.ts";
import { parseCommandArguments } from "./command-arguments.ts";
import { operatorsOption } from "./operators-option.ts";
import { loadEvaluateRules, RulesetChoiceError, type EvaluateRules } from "./evaluate-rules.ts";
import { checkInputFile, InputFileError, readInputText } from "./input-file.ts";
import { UsageError } from "./usage-error.ts";
import { explanationText, requestWarningText } from "../engine/explanation/explanation-text.ts";
import { ruleFactsById } from "../engine/explanation/wording-context.ts";
import { isExplainMode, type ExplainMode } from "../engine/explanation/explanation.ts";
import { didYouMean } from "../engine/names/closest-name.ts";
import { evaluateLines } from "./evaluate-lines.ts";
import { commandPath, workingDirectory, type CommandIo } from "./command-io.ts";
import { streamText } from "./text-stream.ts";

/**
 * `rule-server evaluate [--bundle <file> | --ruleset <file> | <file|dir>] [--channel client|server]
 * [--explain [rules|full]] [--rule <id>] [--format json|text] [--lines]
 * [--schema-enforcement off|warn|reject] [request.json|-]`: evaluates one request (from a file, or
 * standard input) against a bundle, a ruleset source compiled in memory as `check` compiles it, or
 * the rulesets of a directory, and prints the result. A file named without an option is told
 * apart by its name (`*.bundle.json`, `*.ruleset.*`). The request's `ruleset` member picks the
 * ruleset, and must be one given (evaluate-rules.ts). `--explain` adds the explanation (text for
 * people by default, `--format json` for tools); `--rule` keeps only that rule's. `--lines` reads
 * one request per line and writes one JSON line per request (evaluate-lines.ts).
 * `--schema-enforcement` checks the request against the ruleset as the server's
 * RULE_SERVER_SCHEMA_ENFORCEMENT does; off by default, as the specification evaluates.
 */
export async function runEvaluateCommand(args: readonly string[], io: CommandIo): Promise<number> {
  try {
    return await evaluate(args, io);
  } catch (error) {
    if (error instanceof InputFileError) return failure(io, `${error.code}: ${error.message}`);
    throw error;
  }
}

async function evaluate(args: readonly string[], io: CommandIo): Promise<number> {
  const { explain, rest } = explainOption(args);
  const parsed = parseCommandArguments("evaluate", rest, {
    flags: ["--lines"],
    options: ["--bundle", "--ruleset", "--channel", "--format", "--rule", "--schema-enforcement", "--operators"],
  });
  const lines = parsed.flags.has("--lines");
  const format = parsed.options.get("--format") ?? (explain === undefined || lines ? "json" : "text");
  if (format !== "json" && format !== "text")
    throw new UsageError(`evaluate: --format must be json or text, not ${format}`);
  const onlyRule = parsed.options.get("--rule");
  // A line of output per request: JSON only, and every rule's explanation.
  if (lines && format === "text")
    throw new UsageError("evaluate: --lines writes JSON lines; --format text is for one request");
  if (lines && onlyRule !== undefined) throw new UsageError("evaluate: --rule is for one request, not --lines");
  if (onlyRule !== undefined && explain === undefined)
    throw new UsageError("evaluate: --rule chooses the rule whose explanation is shown; add --explain");
  const schemaEnforcement = parsed.options.get("--schema-enforcement") ?? "off";
  if (!isSchemaEnforcement(schemaEnforcement))
    throw new UsageError(
      `evaluate: --schema-enforcement takes ${SCHEMA_ENFORCEMENTS.join(", ")}, not ${schemaEnforcement}`,
    );
  const positional = [...parsed.positional];
  const bundleOption = parsed.options.get("--bundle");
  const rulesetOption = parsed.options.get("--ruleset");
  if (bundleOption !== undefined && rulesetOption !== undefined)
    throw new UsageError("evaluate: give --bundle or --ruleset, not both");
  const rulesPath = bundleOption ?? rulesetOption ?? positional.shift();
  if (rulesPath === undefined)
    throw new UsageError(
      "evaluate: name a bundle, a ruleset source or a directory of rulesets (--bundle <file>, --ruleset <file>, or the file or directory itself)",
    );
  if (positional.length > 1) throw new UsageError("evaluate: name at most one request file");
  const channel = parsed.options.get("--channel");
  if (channel !== undefined && !isChannel(channel))
    throw new UsageError('evaluate: --channel must be "client" or "server"');
  const loaded = loadEvaluateRules(
    commandPath(io, rulesPath),
    bundleOption !== undefined ? "bundle" : rulesetOption !== undefined ? "source" : undefined,
    operatorsOption("evaluate", parsed.options.get("--operators")),
  );
  if (!loaded.ok) {
    await io.stderr.write(
      loaded.problems.map((problem) => `${formatProblem(problem, workingDirectory(io))}\n`).join(""),
    );
    return failure(io, loaded.message);
  }
  const requestFile = positional[0] ?? "-";
  const options: EvaluateOptions = { ...(explain === undefined ? {} : { explain }), schemaEnforcement };
  if (lines) return evaluateRequestLines(loaded.rules, requestFile, channel, options, io);
  const text =
    requestFile === "-" ? await streamText(io.stdin) : readInputText(commandPath(io, requestFile), "the request file");
  const request = parseJson(text);
  if (!request.ok)
    return failure(
      io,
      `BAD_REQUEST: ${requestFile === "-" ? "the request on standard input" : `the request file ${requestFile}`}: ${request.message}`,
    );
  try {
    const picked = loaded.rules.pick(request.value);
    const result = picked.ruleset.evaluateChecked(picked.request, channel, undefined, options);
    if (onlyRule !== undefined && result.explanation !== undefined) {
      const rules = result.explanation.rules;
      result.explanation.rules = rules.filter((rule) => rule.rule === onlyRule);
      if (result.explanation.rules.length === 0)
        return failure(
          io,
          `no rule ${onlyRule} in the ${channel ?? "server"} manifest${didYouMean(
            onlyRule,
            rules.map((rule) => rule.rule),
          )}`,
        );
    }
    // The text names what the request asked and what each rule targets, as the explorer does.
    const context = { request: picked.request, rules: ruleFactsById(picked.ruleset.manifest(channel)) };
    await io.stdout.write(
      format === "text" ? explanationText(result, context) : `${JSON.stringify(result, null, 2)}\n`,
    );
    return 0;
  } catch (error) {
    if (error instanceof RequestMisfitError)
      return failure(
        io,
        `${error.code}: the request does not fit the ruleset:\n${error.warnings.map((warning) => `  ${requestWarningText(warning)}`).join("\n")}`,
      );
    if (
      error instanceof LoadError ||
      error instanceof RequestShapeError ||
      error instanceof ChannelUnavailableError ||
      error instanceof RulesetChoiceError
    )
      return failure(io, `${error.code}: ${error.message}`);
    throw error;
  }
}

/** `--lines`: the rules loaded once, then every line of the request file (or standard input) evaluated against them. */
async function evaluateRequestLines(
  rules: EvaluateRules,
  requestFile: string,
  channel: Channel | undefined,
  options: EvaluateOptions,
  io: CommandIo,
): Promise<number> {
  if (requestFile === "-") return evaluateLines(rules, io.stdin, channel, options, (text) => io.stdout.write(text));
  const path = commandPath(io, requestFile);
  checkInputFile(path, "the request file");
  return evaluateLines(rules, Bun.file(path).stream(), channel, options, (text) => io.stdout.write(text));
}

/** `--explain` takes `rules` or `full` after it, or stands alone for `rules`. */
function explainOption(args: readonly string[]): { explain: ExplainMode | undefined; rest: string[] } {
  const index = args.indexOf("--explain");
  if (index === -1) return { explain: undefined, rest: [...args] };
  const next = args[index + 1];
  const valued = next !== undefined && !next.startsWith("-") && !next.includes(".") && !next.includes("/");
  if (valued && !isExplainMode(next)) throw new UsageError(`evaluate: --explain takes rules or full, not ${next}`);
  const rest = [...args.slice(0, index), ...args.slice(index + (valued ? 2 : 1))];
  return { explain: valued ? (next as ExplainMode) : "rules", rest };
}

/** The message on stderr, led by the command's name; resolves with the exit status, 1. */
async function failure(io: CommandIo, message: string): Promise<number> {
  await io.stderr.write(`rule-server evaluate: ${message}\n`);
  return 1;
}
