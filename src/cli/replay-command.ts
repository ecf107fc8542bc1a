import type { LoadedRuleset } from "../engine/bundle/loaded-ruleset.ts";
import type { CustomOperators } from "../engine/expression/custom-operators.ts";
import { MaskedReplay } from "../records/replay/masked-replay.ts";
import { replayLine } from "../records/replay/record-replay.ts";
import { replayText } from "../records/replay/replay-report.ts";
import { emptySummary } from "../records/replay/replay-summary.ts";
import { formatProblem } from "./check-report/text-report.ts";
import { checkInputFile, InputFileError } from "./input-file.ts";
import { parseCommandArguments } from "./command-arguments.ts";
import { RuleFileLoader } from "../workspace/rule-file-loader.ts";
import { ruleFilesNamed } from "../workspace/rule-file-checks.ts";
import { operatorsOption } from "./operators-option.ts";
import { UsageError } from "./usage-error.ts";
import { commandPath, workingDirectory, type CommandIo } from "./command-io.ts";
import { streamLines } from "./text-stream.ts";

/**
 * `rule-server replay --rules <dir|file>... [--recorded-rules <dir|file>...] <records.jsonl|->`:
 * what the given rules would decide on the requests of decision records
 * (RULE_SERVER_DECISION_RECORDS), against what was decided. The recorded rules (those that made
 * the records) tell which rules changed, for records with masked members. Exit 2 also when the
 * records file cannot be read.
 * Exit 0; 1 with `--fail-on-change` when a decision changes; 2 when the rules do not load.
 */
export async function runReplayCommand(args: readonly string[], io: CommandIo): Promise<number> {
  const rules: string[] = [];
  const recordedRules: string[] = [];
  const rest: string[] = [];
  // --rules and --recorded-rules may be given several times, each with a directory or file.
  for (let index = 0; index < args.length; index++) {
    const list = args[index] === "--rules" ? rules : args[index] === "--recorded-rules" ? recordedRules : undefined;
    if (list !== undefined) {
      const value = args[++index];
      if (value === undefined) throw new UsageError(`replay: ${args[index - 1]} needs a directory or file`);
      list.push(value);
    } else rest.push(args[index]!);
  }
  const parsed = parseCommandArguments("replay", rest, {
    flags: ["--explain", "--fail-on-change"],
    options: ["--format", "--limit", "--ruleset", "--operators"],
  });
  if (rules.length === 0) throw new UsageError("replay: name the rules to replay against with --rules <dir|file>");
  if (parsed.positional.length !== 1) throw new UsageError("replay: name one records file, or - for standard input");
  const format = parsed.options.get("--format") ?? "text";
  if (format !== "text" && format !== "json")
    throw new UsageError(`replay: --format must be text or json, not ${format}`);
  const limitText = parsed.options.get("--limit");
  const limit = limitText === undefined ? Infinity : Number(limitText);
  if (limitText !== undefined && (!/^[0-9]+$/.test(limitText) || !Number.isSafeInteger(limit)))
    throw new UsageError(`replay: --limit takes a whole number of records, not ${limitText}`);

  const operators = operatorsOption("replay", parsed.options.get("--operators"));
  const loaded = await loadRulesets(rules, operators, io);
  if (!loaded.ok) return 2;
  // The rules that made the records tell which rules changed since, for records with masked members.
  const recorded =
    recordedRules.length === 0
      ? { ok: true as const, rulesets: new Map<string, LoadedRuleset>() }
      : await loadRulesets(recordedRules, operators, io);
  if (!recorded.ok) return 2;
  const ruleset = parsed.options.get("--ruleset");
  if (ruleset !== undefined && !loaded.rulesets.has(ruleset))
    await io.stderr.write(`rule-server replay: the rules given hold no ruleset ${ruleset}\n`);
  const masked = new MaskedReplay(
    operators,
    new Map([...recorded.rulesets.values()].map((made) => [made.checksum, made])),
  );
  const options = {
    rulesets: loaded.rulesets,
    masked,
    ...(ruleset === undefined ? {} : { ruleset }),
    explain: parsed.flags.has("--explain"),
  };
  const recordsFile = parsed.positional[0] === "-" ? "-" : commandPath(io, parsed.positional[0]!);
  if (recordsFile !== "-") {
    try {
      checkInputFile(recordsFile, "the records file");
    } catch (error) {
      if (!(error instanceof InputFileError)) throw error;
      await io.stderr.write(`rule-server replay: ${error.code}: ${error.message}\n`);
      return 2;
    }
  }
  const summary = emptySummary();
  const source = recordsFile === "-" ? io.stdin : Bun.file(recordsFile).stream();
  let line = 0;
  for await (const text of streamLines(source)) {
    line++;
    if (text.trim() === "") continue;
    replayLine(text, line, options, summary);
    if (summary.records >= limit) break;
  }
  await io.stdout.write(format === "json" ? `${JSON.stringify(summary, null, 2)}\n` : replayText(summary));
  return parsed.flags.has("--fail-on-change") && summary.allowToDeny + summary.denyToAllow > 0 ? 1 : 0;
}

/** The rulesets to replay against by id: sources compiled as `check` compiles them, bundles read. */
async function loadRulesets(
  targets: readonly string[],
  operators: CustomOperators,
  io: CommandIo,
): Promise<{ ok: true; rulesets: Map<string, LoadedRuleset> } | { ok: false }> {
  const loader = new RuleFileLoader(operators);
  const rulesets = new Map<string, LoadedRuleset>();
  const cwd = workingDirectory(io);
  let ok = true;
  for (const file of ruleFilesNamed(targets.map((target) => commandPath(io, target)))) {
    const loaded = loader.load(file);
    if (loaded.ok) rulesets.set(loaded.ruleset.id, loaded.ruleset);
    else {
      ok = false;
      await io.stderr.write(
        loaded.problems
          .map((problem) => `${formatProblem({ ...problem, file: problem.file ?? file }, cwd)}\n`)
          .join(""),
      );
    }
  }
  if (rulesets.size === 0 && ok) {
    await io.stderr.write(`rule-server replay: no ruleset found in ${targets.join(", ")}\n`);
    return { ok: false };
  }
  return ok ? { ok: true, rulesets } : { ok: false };
}
