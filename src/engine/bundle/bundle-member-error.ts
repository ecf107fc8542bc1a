import { LoadError } from "./load-problem.ts";

/**
 * A bundle refused because of one member, named by its path from the bundle's root (`manifests`,
 * `server`). The engine has no file text; a reader that has it turns the path into a line.
 */
export class BundleMemberError extends LoadError {
  constructor(
    code: "BUNDLE_INVALID" | "BUNDLE_UNSUPPORTED",
    message: string,
    readonly member: readonly string[],
  ) {
    super([{ code, message }]);
  }
}
