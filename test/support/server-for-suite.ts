import { afterAll, beforeAll } from "bun:test";
import { rulesDirectory } from "./rules-directory.ts";
import { serverEnvironment, startServer, type ServerProcess } from "./server-process.ts";

/**
 * One server process for the tests of the enclosing suite (or file), on a fresh copy of the
 * server test rules with `files` added: started before them, killed after them. Its members are
 * read in the tests, since the server exists only once the suite starts.
 */
export function serverForSuite(
  extra: Record<string, string | undefined> = {},
  files: Record<string, string> = {},
): { readonly server: ServerProcess; readonly rules: ReturnType<typeof rulesDirectory> } {
  let server: ServerProcess | undefined;
  let rules: ReturnType<typeof rulesDirectory> | undefined;
  beforeAll(async () => {
    rules = rulesDirectory(files);
    server = await startServer(serverEnvironment(rules.path, extra));
  });
  afterAll(async () => {
    await server?.kill();
    rules?.remove();
  });
  return {
    get server() {
      return server!;
    },
    get rules() {
      return rules!;
    },
  };
}
