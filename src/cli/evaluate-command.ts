import { existsSync, readFileSync } from "node:fs";
import { basename, resolve } from "node:path";
import { isChannel } from "../engine/bundle/channel.ts";
import { ChannelUnavailableError } from "../engine/bundle/channel.ts";
import { LoadedRuleset } from "../engine/bundle/loaded-ruleset.ts";
import { LoadError } from "../engine/bundle/load-problem.ts";
import { RequestShapeError } from "../engine/evaluation/request-shape.ts";
import type { JsonValue } from "../engine/value/json-value.ts";
import { parseJson } from "../engine/value/parse-json.ts";
import { ruleFileKind } from "../rule-files/rule-file-kind.ts";
import { formatProblem } from "./check-report/text-report.ts";
import { parseCommandArguments } from "./command-arguments.ts";
import { compileSourceFile } from "./compile-source-file.ts";
import { UsageError } from "./usage-error.ts";
import { explanationText } from "./explanation-text.ts";
import { isExplainMode, type ExplainMode } from "../engine/explanation/explanation.ts";
import { didYouMean } from "../engine/names/closest-name.ts";
import { evaluateLines } from "./evaluate-lines.ts";

/**
 * `rule-server evaluate [--bundle <file> | --ruleset <file> | <file>] [--channel client|server]
 * [--explain [rules|full]] [--rule <id>] [--format json|text] [--lines] [request.json|-]`:
 * evaluates one request (from a file, or standard input) against a bundle, or against a ruleset
 * source compiled in memory as `check` compiles it, and prints the result. A file named without
 * an option is told apart by its name (`*.bundle.json`, `*.ruleset.*`). `--explain` adds the
 * explanation (text for people by default, `--format json` for tools); `--rule` keeps only that
 * rule's. `--lines` reads one request per line and writes one JSON line per request
 * (evaluate-lines.ts).
 */
export async function runEvaluateCommand(args: readonly string[]): Promise<number> {
  const { explain, rest } = explainOption(args);
  const parsed = parseCommandArguments("evaluate", rest, { flags: ["--lines"], options: ["--bundle", "--ruleset", "--channel", "--format", "--rule"] });
  const lines = parsed.flags.has("--lines");
  const format = parsed.options.get("--format") ?? (explain === undefined || lines ? "json" : "text");
  if (format !== "json" && format !== "text") throw new UsageError(`evaluate: --format must be json or text, not ${format}`);
  const onlyRule = parsed.options.get("--rule");
  // A line of output per request: JSON only, and every rule's explanation.
  if (lines && format === "text") throw new UsageError("evaluate: --lines writes JSON lines; --format text is for one request");
  if (lines && onlyRule !== undefined) throw new UsageError("evaluate: --rule is for one request, not --lines");
  if (onlyRule !== undefined && explain === undefined) throw new UsageError("evaluate: --rule chooses the rule whose explanation is shown; add --explain");
  const positional = [...parsed.positional];
  const bundleOption = parsed.options.get("--bundle");
  const rulesetOption = parsed.options.get("--ruleset");
  if (bundleOption !== undefined && rulesetOption !== undefined) throw new UsageError("evaluate: give --bundle or --ruleset, not both");
  const rulesFile = bundleOption ?? rulesetOption ?? positional.shift();
  if (rulesFile === undefined) throw new UsageError("evaluate: name a bundle or a ruleset source (--bundle <file>, --ruleset <file>, or the file itself)");
  if (positional.length > 1) throw new UsageError("evaluate: name at most one request file");
  const channel = parsed.options.get("--channel");
  if (channel !== undefined && !isChannel(channel)) throw new UsageError('evaluate: --channel must be "client" or "server"');
  const kind = bundleOption !== undefined ? "bundle" : rulesetOption !== undefined ? "source" : ruleFileKind(basename(rulesFile));
  if (kind !== "bundle" && kind !== "source") {
    return failure(`${rulesFile} is neither a bundle (*.bundle.json) nor a ruleset source (*.ruleset.yaml, *.ruleset.yml, *.ruleset.json); use --bundle or --ruleset to say which it is`);
  }
  const bundle = kind === "bundle" ? readBundle(rulesFile) : compileInMemory(rulesFile);
  if (bundle === undefined) return 1;
  const requestFile = positional[0] ?? "-";
  if (lines) return evaluateRequestLines(bundle, requestFile, channel, explain);
  const request = parseJson(requestFile === "-" ? await new Response(Bun.stdin.stream()).text() : readFileSync(requestFile, "utf8"));
  if (!request.ok) return failure(`the request: ${request.message}`);
  try {
    const result = LoadedRuleset.fromBundle(bundle).evaluate(request.value, channel, explain === undefined ? {} : { explain });
    if (onlyRule !== undefined && result.explanation !== undefined) {
      const rules = result.explanation.rules;
      result.explanation.rules = rules.filter((rule) => rule.rule === onlyRule);
      if (result.explanation.rules.length === 0) return failure(`no rule ${onlyRule} in the ${channel ?? "server"} manifest${didYouMean(onlyRule, rules.map((rule) => rule.rule))}`);
    }
    process.stdout.write(format === "text" ? explanationText(result) : JSON.stringify(result, null, 2) + "\n");
    return 0;
  } catch (error) {
    if (error instanceof LoadError || error instanceof RequestShapeError || error instanceof ChannelUnavailableError) return failure(`${error.code}: ${error.message}`);
    throw error;
  }
}

/** `--lines`: the bundle loaded once, then every line of the request file (or standard input) evaluated against it. */
async function evaluateRequestLines(bundle: JsonValue, requestFile: string, channel: "client" | "server" | undefined, explain: ExplainMode | undefined): Promise<number> {
  let ruleset: LoadedRuleset;
  try {
    ruleset = LoadedRuleset.fromBundle(bundle);
  } catch (error) {
    if (error instanceof LoadError) return failure(`${error.code}: ${error.message}`);
    throw error;
  }
  if (requestFile !== "-" && !existsSync(requestFile)) return failure(`no request file ${requestFile}`);
  const input = requestFile === "-" ? Bun.stdin.stream() : Bun.file(requestFile).stream();
  return evaluateLines(ruleset, input, channel, explain, (text) => new Promise((resolve) => process.stdout.write(text, () => resolve())));
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

function readBundle(file: string): JsonValue | undefined {
  const bundle = parseJson(readFileSync(file, "utf8"));
  if (bundle.ok) return bundle.value;
  failure(`${file} is not a bundle: ${bundle.message}`);
  return undefined;
}

/** The bundle of a source file, or undefined after printing its problems as `check` does. */
function compileInMemory(file: string): JsonValue | undefined {
  const compilation = compileSourceFile(resolve(file));
  if (compilation.ok) return compilation.compiled.bundle;
  for (const problem of compilation.problems) process.stderr.write(formatProblem(problem) + "\n");
  failure(`${file} cannot be compiled (${compilation.problems.length} problem(s))`);
  return undefined;
}

function failure(message: string): number {
  process.stderr.write(`rule-server evaluate: ${message}\n`);
  return 1;
}
