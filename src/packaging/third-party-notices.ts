import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { PackagingError } from "./packaging-error.ts";

/**
 * ThirdPartyNotices.txt of what we ship with other packages bundled in (the npm package's
 * engine.js, the VS Code extension's client): their licenses (MIT, ISC, Blue Oak) ask that their
 * notice travel with the code. Each package's own license file, as installed.
 */
export function thirdPartyNotices(packageDirectories: readonly string[], bundle: string): string {
  const sections = packageDirectories.map((directory) => {
    const manifest = JSON.parse(readFileSync(join(directory, "package.json"), "utf8")) as {
      name: string;
      version: string;
      license?: string;
    };
    const licenseFile = readdirSync(directory)
      .sort()
      .find((name) => /^licen[cs]e/i.test(name));
    if (licenseFile === undefined)
      throw new PackagingError(
        "LICENSE_FILE_MISSING",
        `${manifest.name} is bundled into ${bundle} but has no license file to ship with it`,
      );
    return `${manifest.name} ${manifest.version} (${manifest.license ?? "see below"})\n\n${readFileSync(join(directory, licenseFile), "utf8").trim()}\n`;
  });
  const rule = `\n${"-".repeat(72)}\n\n`;
  return `The following packages are bundled into ${bundle}.\n${rule}${sections.join(rule)}`;
}
