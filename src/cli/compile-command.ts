import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { isChannel } from "../engine/bundle/channel.ts";
import { parseCommandArguments } from "./command-arguments.ts";
import { formatProblem } from "./check-report/text-report.ts";
import { compileSourceFile, type SourceCompilation } from "../workspace/compile-source-file.ts";
import { UsageError } from "./usage-error.ts";
import { commandPath, workingDirectory, type CommandIo } from "./command-io.ts";

/** `rule-server compile <file> [-o out.bundle.json]`: the bundle of a ruleset source file. */
export async function runCompileCommand(args: readonly string[], io: CommandIo): Promise<number> {
  const parsed = parseCommandArguments("compile", args, { options: ["-o", "--output"] });
  if (parsed.positional.length !== 1) throw new UsageError("compile: name exactly one ruleset file");
  const compilation = await compileOrReport(parsed.positional[0]!, io);
  if (!compilation.ok) return 1;
  const text = `${JSON.stringify(compilation.compiled.bundle, null, 2)}\n`;
  const output = parsed.options.get("-o") ?? parsed.options.get("--output");
  if (output === undefined) await io.stdout.write(text);
  else writeFileSync(commandPath(io, output), text);
  return 0;
}

/** `rule-server manifest <file> [--channel client|server]`: one manifest of a ruleset source file. */
export async function runManifestCommand(args: readonly string[], io: CommandIo): Promise<number> {
  const parsed = parseCommandArguments("manifest", args, { options: ["--channel"] });
  if (parsed.positional.length !== 1) throw new UsageError("manifest: name exactly one ruleset file");
  const channel = parsed.options.get("--channel") ?? "client";
  if (!isChannel(channel)) throw new UsageError('manifest: --channel must be "client" or "server"');
  const compilation = await compileOrReport(parsed.positional[0]!, io);
  if (!compilation.ok) return 1;
  const manifests = compilation.compiled.bundle.manifests as Record<string, unknown>;
  await io.stdout.write(`${JSON.stringify(manifests[channel], null, 2)}\n`);
  return 0;
}

async function compileOrReport(file: string, io: CommandIo): Promise<SourceCompilation> {
  const compilation = compileSourceFile(resolve(commandPath(io, file)));
  if (!compilation.ok)
    await io.stderr.write(
      compilation.problems.map((problem) => `${formatProblem(problem, workingDirectory(io))}\n`).join(""),
    );
  return compilation;
}
