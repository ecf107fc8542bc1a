import { BUNDLE_FORMAT_VERSION, ENGINE_NAME, ENGINE_VERSION, SPECIFICATION_VERSION } from "../version.ts";

/** `rule-server version`. */
export function versionText(): string {
  return `${ENGINE_NAME} ${ENGINE_VERSION}\nspecification ${SPECIFICATION_VERSION}\nbundle format ${BUNDLE_FORMAT_VERSION}\n`;
}
