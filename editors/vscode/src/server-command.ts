/**
 * The command line that starts the language server, from the extension's settings: `<path>
 * <args...> lsp`. Resolved here, before the language client spawns it, so that a missing or
 * unusable executable is reported in words naming the setting rather than as the client's spawn
 * error. Plain Node code (no `vscode`), so that it is tested without an editor.
 */
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, isAbsolute, join, resolve, sep } from "node:path";

export const DEFAULT_SERVER_PATH = "rule-server";

export interface ServerSettings {
  /** `ruleServer.path`: a bare name looked up on PATH, or a path (relative to the workspace folder). */
  readonly path: string;
  /** `ruleServer.args`: placed before `lsp`, so that `bun src/main.ts lsp` can run a clone. */
  readonly args: readonly string[];
}

export interface ServerEnvironment {
  readonly PATH?: string | undefined;
  /** Windows: the extensions a bare command name may omit (`.EXE;.CMD;...`). */
  readonly PATHEXT?: string | undefined;
  readonly home: string;
  readonly platform: NodeJS.Platform;
  /** The first workspace folder, where a relative path starts and the server runs; none without a folder. */
  readonly workspaceRoot: string | undefined;
}

export interface ServerCommand {
  /** The absolute path of the executable. */
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string | undefined;
}

export type ResolvedServerCommand =
  | { readonly ok: true; readonly server: ServerCommand }
  | { readonly ok: false; readonly problem: string };

export function resolveServerCommand(settings: ServerSettings, environment: ServerEnvironment): ResolvedServerCommand {
  const given = settings.path.trim() === "" ? DEFAULT_SERVER_PATH : settings.path.trim();
  const args = [...settings.args.filter((arg) => typeof arg === "string"), "lsp"];
  const found = locateExecutable(given, environment);
  return found.ok ? { ok: true, server: { command: found.file, args, cwd: environment.workspaceRoot } } : found;
}

type Located = { readonly ok: true; readonly file: string } | { readonly ok: false; readonly problem: string };

function locateExecutable(given: string, environment: ServerEnvironment): Located {
  const windows = environment.platform === "win32";
  const expanded =
    given === "~" || given.startsWith("~/") || (windows && given.startsWith("~\\"))
      ? join(environment.home, given.slice(1))
      : given;
  const hasSeparator = expanded.includes("/") || (windows && expanded.includes("\\")) || expanded.includes(sep);
  const extensions = windows ? windowsExtensions(expanded, environment.PATHEXT) : [""];
  if (hasSeparator) {
    if (!isAbsolute(expanded) && environment.workspaceRoot === undefined) {
      return {
        ok: false,
        problem: `the relative path \`${given}\` needs an open folder to start from; give an absolute path`,
      };
    }
    const file = isAbsolute(expanded) ? expanded : resolve(environment.workspaceRoot!, expanded);
    const usable = extensions
      .map((extension) => file + extension)
      .find((candidate) => isExecutableFile(candidate, windows));
    if (usable !== undefined) return { ok: true, file: usable };
    return {
      ok: false,
      problem: exists(file) ? `\`${file}\` is not an executable file` : `\`${file}\` does not exist`,
    };
  }
  for (const directory of (environment.PATH ?? "").split(delimiter).filter(Boolean)) {
    for (const extension of extensions) {
      const candidate = join(directory, expanded + extension);
      if (isExecutableFile(candidate, windows)) return { ok: true, file: candidate };
    }
  }
  return { ok: false, problem: `\`${given}\` was not found on PATH` };
}

/** A name that already ends in one of PATHEXT's extensions is taken as it is; otherwise each is tried. */
function windowsExtensions(name: string, pathext = ".COM;.EXE;.BAT;.CMD"): string[] {
  const listed = pathext.split(";").filter(Boolean);
  return listed.some((extension) => name.toLowerCase().endsWith(extension.toLowerCase())) ? [""] : listed;
}

/** Windows has no execute bit: a file with a listed extension is enough. */
function isExecutableFile(file: string, windows: boolean): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    if (!windows) accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function exists(file: string): boolean {
  try {
    statSync(file);
    return true;
  } catch {
    return false;
  }
}

/** The command line as a person would type it, for messages. */
export function commandLine(server: Pick<ServerCommand, "command" | "args">): string {
  return [server.command, ...server.args]
    .map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`))
    .join(" ");
}
