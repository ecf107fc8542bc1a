import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { PackagingError } from "../packaging-error.ts";

/**
 * ThirdPartyNotices.txt of the npm package: engine.js holds packages (decimal.js, MIT) whose
 * licenses ask that their notice travel with the code. Each package's own license file, as installed.
 */
export function thirdPartyNotices(packageDirectories: readonly string[]): string {
  const sections = packageDirectories.map((directory) => {
    const manifest = JSON.parse(readFileSync(join(directory, "package.json"), "utf8")) as { name: string; version: string; license?: string };
    const licenseFile = readdirSync(directory).sort().find((name) => /^licen[cs]e/i.test(name));
    if (licenseFile === undefined) throw new PackagingError("LICENSE_FILE_MISSING", `${manifest.name} is bundled into engine.js but has no license file to ship with it`);
    return `${manifest.name} ${manifest.version} (${manifest.license ?? "see below"})\n\n${readFileSync(join(directory, licenseFile), "utf8").trim()}\n`;
  });
  const rule = `\n${"-".repeat(72)}\n\n`;
  return `engine.js includes the following packages.\n${rule}${sections.join(rule)}`;
}
