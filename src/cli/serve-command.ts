import { serveFromEnvironment } from "../server/runtime/serve-from-environment.ts";

/**
 * `rule-server` with no command (or `serve`): the server with options from the environment, in the
 * role the environment gives this process (src/server/runtime/). Resolves with the exit status.
 */
export function runServeCommand(): Promise<number> {
  return serveFromEnvironment(process.env);
}
