import { UsageError } from "./usage-error.ts";

/** A command's arguments: positional ones, `--flag`s and `--option value`s (also `-o value`). */
export interface CommandArguments {
  readonly positional: string[];
  readonly flags: Set<string>;
  readonly options: Map<string, string>;
}

export function parseCommandArguments(
  command: string,
  args: readonly string[],
  accepted: { flags?: readonly string[]; options?: readonly string[] },
): CommandArguments {
  const parsed: CommandArguments = { positional: [], flags: new Set(), options: new Map() };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "-" || !arg.startsWith("-")) parsed.positional.push(arg);
    else if (accepted.flags?.includes(arg)) parsed.flags.add(arg);
    else if (accepted.options?.includes(arg)) {
      const value = args[++i];
      if (value === undefined) throw new UsageError(`${command}: ${arg} needs a value`);
      parsed.options.set(arg, value);
    } else throw new UsageError(`${command}: unknown option ${arg}`);
  }
  return parsed;
}
