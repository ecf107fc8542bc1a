/**
 * The code TypeCompiler generates to check each schema (checked-schemas.ts), by name, made ahead
 * when the release executable is built: build.ts puts a module holding the code in place of this
 * one (src/bundling/prebuilt-checkers.ts). Generating it took a fifth of the executable's start-up
 * on the rules/ example. Run from source there is none, and compileChecker generates it.
 */
export const PREBUILT_CHECKER_CODE: Readonly<Record<string, string>> = {};
