import { readFileSync } from "node:fs";
import { isChannel } from "../engine/bundle/channel.ts";
import { ChannelUnavailableError, LoadedRuleset } from "../engine/bundle/loaded-ruleset.ts";
import { LoadError } from "../engine/bundle/load-problem.ts";
import { RequestShapeError } from "../engine/evaluation/request-shape.ts";
import { parseJson } from "../engine/value/parse-json.ts";
import { parseCommandArguments } from "./command-arguments.ts";
import { UsageError } from "./usage-error.ts";

/**
 * `rule-server evaluate --bundle <file> [--channel client|server] [request.json|-]`: evaluates
 * one request (from a file, or standard input) against a bundle and prints the result.
 */
export async function runEvaluateCommand(args: readonly string[]): Promise<number> {
  const parsed = parseCommandArguments("evaluate", args, { options: ["--bundle", "--channel"] });
  const bundleFile = parsed.options.get("--bundle");
  if (bundleFile === undefined) throw new UsageError("evaluate: --bundle <file> is required");
  if (parsed.positional.length > 1) throw new UsageError("evaluate: name at most one request file");
  const channel = parsed.options.get("--channel");
  if (channel !== undefined && !isChannel(channel)) throw new UsageError('evaluate: --channel must be "client" or "server"');
  const requestFile = parsed.positional[0] ?? "-";
  const bundle = parseJson(readFileSync(bundleFile, "utf8"));
  const request = parseJson(requestFile === "-" ? await new Response(Bun.stdin.stream()).text() : readFileSync(requestFile, "utf8"));
  if (!bundle.ok) return failure(`${bundleFile}: ${bundle.message}`);
  if (!request.ok) return failure(`the request: ${request.message}`);
  try {
    const result = LoadedRuleset.fromBundle(bundle.value).evaluate(request.value, channel);
    process.stdout.write(JSON.stringify(result, null, 2) + "\n");
    return 0;
  } catch (error) {
    if (error instanceof LoadError || error instanceof RequestShapeError || error instanceof ChannelUnavailableError) return failure(`${error.code}: ${error.message}`);
    throw error;
  }
}

function failure(message: string): number {
  process.stderr.write(`rule-server evaluate: ${message}\n`);
  return 1;
}
