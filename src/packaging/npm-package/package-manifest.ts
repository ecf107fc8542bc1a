/**
 * The npm package's name: the project's own, unscoped, as users already say it and as the root
 * package.json (private, never published) calls the project. A scope would need an npm organization
 * the project does not have, for no gain: one package holds both entry points.
 */
export const NPM_PACKAGE_NAME = "rule-server";

/** The files the package ships besides package.json: the two entry points with their types, the README, the licenses. */
export const PACKAGE_FILES = [
  "engine.js",
  "engine.d.ts",
  "client.js",
  "client.d.ts",
  "README.md",
  "LICENSE",
  "ThirdPartyNotices.txt",
] as const;

export function npmPackageFileName(version: string): string {
  return `${NPM_PACKAGE_NAME}-${version}.tgz`;
}

/**
 * package.json of the npm package. Two entry points, so that a page that evaluates locally bundles
 * the engine alone and a back-end that calls the server loads the client alone; the bare name is
 * the engine. ES modules only: browsers, Node.js 20 and later, Bun and Deno all load them.
 * `sideEffects: false` lets bundlers drop whatever a page does not use.
 */
export function npmPackageManifest(project: {
  readonly version: string;
  readonly license: string;
}): Record<string, unknown> {
  const entry = (name: string) => ({ types: `./${name}.d.ts`, default: `./${name}.js` });
  return {
    name: NPM_PACKAGE_NAME,
    version: project.version,
    description:
      "The Rule Cascade engine of rule-server for browsers, Node.js, Bun and Deno, and a typed client for the rule server's HTTP API",
    keywords: ["business-rules", "rules-engine", "rule-cascade", "validation", "rule-server"],
    license: project.license,
    type: "module",
    sideEffects: false,
    engines: { node: ">=20" },
    exports: {
      ".": entry("engine"),
      "./engine": entry("engine"),
      "./client": entry("client"),
      "./package.json": "./package.json",
    },
    main: "./engine.js",
    types: "./engine.d.ts",
    files: PACKAGE_FILES.filter((file) => file !== "README.md" && file !== "LICENSE"),
  };
}
