import packageJson from "../package.json" with { type: "json" };

/** What this program is and which formats it speaks (engine protocol `version`, `rule-server version`). */
export const ENGINE_NAME = "rule-server";
export const ENGINE_VERSION: string = packageJson.version;
/** The Rule Cascade specification implemented. */
export const SPECIFICATION_VERSION = "1.0.0";
export { BUNDLE_FORMAT_VERSION } from "./engine/bundle/bundle-format.ts";
