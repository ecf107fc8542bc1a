import { standaloneRulesetSchema } from "../compiler/schema/standalone-json-schema.ts";
import { parseCommandArguments } from "./command-arguments.ts";
import { UsageError } from "./usage-error.ts";
import type { CommandIo } from "./command-io.ts";

/** `rule-server schema`: the JSON Schema of ruleset sources, for editors and other validators. */
export async function runSchemaCommand(args: readonly string[], io: CommandIo): Promise<number> {
  const parsed = parseCommandArguments("schema", args, {});
  if (parsed.positional.length > 0) throw new UsageError("schema: takes no arguments");
  await io.stdout.write(`${JSON.stringify(standaloneRulesetSchema(), null, 2)}\n`);
  return 0;
}
