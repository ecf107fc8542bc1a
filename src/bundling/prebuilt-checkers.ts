import type { BunPlugin } from "bun";
import { CHECKED_SCHEMAS, type CheckedSchemaName, generatedCheckerCode } from "../compiler/schema/checked-schemas.ts";

/** The module holding every checked schema's code, made now: what the executable holds in place of prebuilt-checker-code.ts. */
export function prebuiltCheckerModule(): string {
  const code = Object.fromEntries(
    (Object.keys(CHECKED_SCHEMAS) as CheckedSchemaName[]).map((name) => [name, generatedCheckerCode(name)]),
  );
  return `export const PREBUILT_CHECKER_CODE = ${JSON.stringify(code)};\n`;
}

/**
 * Puts the schemas' checking code, generated at build time by the same TypeBox, in place of
 * src/compiler/schema/prebuilt-checker-code.ts, so that the executable does not generate it as it
 * starts. `embedded` says whether the module was found (the build fails otherwise).
 */
export function prebuiltCheckers(): BunPlugin & { embedded: () => boolean } {
  let embedded = false;
  return {
    name: "prebuilt-checkers",
    embedded: () => embedded,
    setup(build) {
      build.onLoad({ filter: /[\\/]compiler[\\/]schema[\\/]prebuilt-checker-code\.ts$/ }, () => {
        embedded = true;
        return { contents: prebuiltCheckerModule(), loader: "js" };
      });
    },
  };
}
