import { sourceGoldenTests } from "../workspace/files/source-golden-tests.ts";
import { reportWriter } from "./check-report/report-formats.ts";
import { parseCommandArguments } from "./command-arguments.ts";
import { operatorsOption } from "./operators-option.ts";
import { checkRuleFiles, ruleFilesNamed } from "../workspace/rule-file-checks.ts";
import { isDirectory } from "../workspace/files/source-documents.ts";
import { UsageError } from "./usage-error.ts";
import { type BundleSignatures, signaturesOfFiles } from "../workspace/files/bundle-signatures.ts";
import { commandPath, workingDirectory, type CommandIo } from "./command-io.ts";

/**
 * `rule-server check <file|dir>... [--format text|json|github|junit] [--json] [--strict] [--portable]`: every
 * load check of the named rulesets (and of the rulesets and bundles in the named directories) and
 * their golden tests, run with the custom operators the executable registers (none; `--operators
 * test` registers the conformance corpora's), and the warnings of rules
 * that load but can never be right. Exit status 1 on any problem or failed test, and when the
 * paths hold no ruleset at all, for CI; warnings alone leave it 0, unless `--strict` makes them problems.
 * `--portable` warns on every expression written as text (EXPRESSION_NOT_PORTABLE), for sources
 * that other Rule Cascade runtimes must read. `--trusted-keys` (or RULE_SERVER_TRUSTED_KEYS, as the
 * server reads it) refuses what a server with those keys refuses: sources, and bundles without a
 * valid signature.
 */
export async function runCheckCommand(args: readonly string[], io: CommandIo): Promise<number> {
  const parsed = parseCommandArguments("check", args, {
    flags: ["--json", "--strict", "--portable"],
    options: ["--format", "--operators", "--trusted-keys"],
  });
  if (parsed.positional.length === 0) throw new UsageError("check: name at least one ruleset file or directory");
  const write = reportWriter("check", parsed.flags.has("--json") ? "json" : (parsed.options.get("--format") ?? "text"));
  const paths = parsed.positional.map((path) => commandPath(io, path));
  const files = ruleFilesNamed(paths);
  if (files.length === 0) {
    await io.stderr.write(
      `rule-server check: no ruleset found in ${parsed.positional.join(", ")} (no *.ruleset.yaml, *.ruleset.yml, *.ruleset.json or *.bundle.json file)\n`,
    );
    return 1;
  }
  const operators = operatorsOption("check", parsed.options.get("--operators"));
  const trusted = parsed.options.get("--trusted-keys") ?? (io.env.RULE_SERVER_TRUSTED_KEYS || undefined);
  let signatures: BundleSignatures | undefined;
  if (trusted !== undefined) {
    // Imported when asked for: the signing part loads jose.
    const { TrustedKeys } = await import("../signing/trusted-keys.ts");
    try {
      signatures = await signaturesOfFiles(files, await TrustedKeys.read(trusted, workingDirectory(io)));
    } catch (error) {
      const code = (error as { code?: string }).code ?? "TRUSTED_KEYS_INVALID";
      await io.stderr.write(`rule-server check: ${code}: ${error instanceof Error ? error.message : String(error)}\n`);
      return 1;
    }
  }
  const reports = checkRuleFiles(files, {
    ...(signatures === undefined ? {} : { signatures }),
    operators,
    directories: paths.filter(isDirectory),
    strict: parsed.flags.has("--strict"),
    portable: parsed.flags.has("--portable"),
    runTests: ({ source, loaded }) => sourceGoldenTests(loaded, source),
  });
  const failed = reports.some(
    (report) => report.problems.length > 0 || report.tests.some((test) => test.failures.length > 0),
  );
  await io.stdout.write(write(reports, failed, workingDirectory(io)));
  return failed ? 1 : 0;
}
