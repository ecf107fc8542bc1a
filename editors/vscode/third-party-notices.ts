/**
 * ThirdPartyNotices.txt of the .vsix: the bundle holds the language client and what it depends
 * on, whose licenses (MIT, ISC, Blue Oak) ask that their notice travel with the code. The packages
 * are the ones the bundler actually read (its metafile), each with its installed license file.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

/** The directory of each npm package among the bundler's inputs (paths relative to `cwd`), once each. */
export function bundledPackages(inputs: readonly string[], cwd: string): string[] {
  const directories = new Set<string>();
  for (const input of inputs) {
    const path = resolve(cwd, input).replaceAll("\\", "/");
    const match = /^(.*\/node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(path);
    if (match) directories.add(match[1]!);
  }
  return [...directories].sort();
}

export function thirdPartyNotices(packageDirectories: readonly string[]): string {
  const sections = packageDirectories.map((directory) => {
    const manifest = JSON.parse(readFileSync(join(directory, "package.json"), "utf8")) as { name: string; version: string; license?: string };
    const licenseFile = existsSync(directory) ? readdirSync(directory).sort().find((name) => /^licen[cs]e/i.test(name)) : undefined;
    if (licenseFile === undefined) throw new Error(`${manifest.name} is bundled into the extension but has no license file to ship with it`);
    const text = readFileSync(join(directory, licenseFile), "utf8").trim();
    return `${manifest.name} ${manifest.version} (${manifest.license ?? "see below"})\n\n${text}\n`;
  });
  const rule = `\n${"-".repeat(72)}\n\n`;
  return `The extension's bundled client (dist/extension.js) includes the following packages.\n${rule}${sections.join(rule)}`;
}
