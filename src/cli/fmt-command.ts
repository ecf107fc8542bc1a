import { readFileSync, writeFileSync } from "node:fs";
import { basename, resolve } from "node:path";
import { type ExpressionForm, EXPRESSION_FORMS } from "../formatting/expression-rewrites.ts";
import { formatRulesetSource } from "../formatting/format-ruleset-source.ts";
import { ruleFileKind } from "../workspace/files/rule-file-kind.ts";
import { ruleFilesOf } from "../workspace/files/rule-files-of-directory.ts";
import { isDirectory } from "../workspace/files/source-documents.ts";
import { displayPath } from "./check-report/check-totals.ts";
import { formatProblem } from "./check-report/text-report.ts";
import { parseCommandArguments } from "./command-arguments.ts";
import { commandPath, workingDirectory, type CommandIo } from "./command-io.ts";
import { UsageError } from "./usage-error.ts";

/**
 * `rule-server fmt [--expressions text|tree] [--check] <file|dir>...`: writes every expression of
 * the named ruleset sources (and of the sources in the named directories, as `check` lists them)
 * as text or as a tree, in place, changing nothing else (src/formatting). `formatted FILE` for
 * each file written. `--check` writes nothing and names each file that would change (`would
 * format FILE`), exit 1 if any would, for CI. A file that cannot be read, or whose texts do not
 * parse, is left as it is, its problems on stderr as `check` writes them, and the exit status is 1.
 */
export async function runFmtCommand(args: readonly string[], io: CommandIo): Promise<number> {
  const parsed = parseCommandArguments("fmt", args, { flags: ["--check"], options: ["--expressions"] });
  const form = parsed.options.get("--expressions") ?? "text";
  if (!EXPRESSION_FORMS.includes(form as ExpressionForm))
    throw new UsageError(`fmt: --expressions is ${EXPRESSION_FORMS.join(" or ")}, not ${form}`);
  if (parsed.positional.length === 0) throw new UsageError("fmt: name at least one ruleset file or directory");
  const cwd = workingDirectory(io);
  const checkOnly = parsed.flags.has("--check");
  let failed = false;
  let wouldChange = false;
  const files: string[] = [];
  for (const named of parsed.positional) {
    const path = commandPath(io, named);
    if (isDirectory(path)) files.push(...ruleFilesOf(path).source);
    else if (ruleFileKind(basename(path)) === "source") files.push(resolve(path));
    else {
      await io.stderr.write(
        `rule-server fmt: ${named} is not a ruleset source (*.ruleset.yaml, *.ruleset.yml or *.ruleset.json)\n`,
      );
      failed = true;
    }
  }
  if (files.length === 0 && !failed) {
    await io.stderr.write(`rule-server fmt: no ruleset source found in ${parsed.positional.join(", ")}\n`);
    return 1;
  }
  for (const file of files) {
    const shown = displayPath(file, cwd);
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (error) {
      await io.stderr.write(`rule-server fmt: cannot read ${shown}: ${errorMessage(error)}\n`);
      failed = true;
      continue;
    }
    const outcome = formatRulesetSource(text, file, form as ExpressionForm);
    if (!outcome.ok) {
      await io.stderr.write(outcome.problems.map((problem) => `${formatProblem(problem, cwd)}\n`).join(""));
      failed = true;
    } else if (outcome.changed && checkOnly) {
      wouldChange = true;
      await io.stdout.write(`would format ${shown}\n`);
    } else if (outcome.changed) {
      try {
        writeFileSync(file, outcome.text);
      } catch (error) {
        await io.stderr.write(`rule-server fmt: cannot write ${shown}: ${errorMessage(error)}\n`);
        failed = true;
        continue;
      }
      await io.stdout.write(`formatted ${shown}\n`);
    }
  }
  return failed || wouldChange ? 1 : 0;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
