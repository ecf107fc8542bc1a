import type { JsonObject } from "../browser/rule-cascade.ts";

/** A word for a POSIX shell, in single quotes: nothing in it is expanded. */
function shellQuoted(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * The curl command that sends an evaluation request to the server. The token is never written
 * into it: the command reads it from the shell's `$TOKEN`, so the text can be shared.
 */
export function curlCommand(evaluationsUrl: string, request: JsonObject): string {
  return [
    `curl -sS -X POST ${shellQuoted(evaluationsUrl)}`,
    `  -H "Authorization: Bearer $TOKEN"`,
    `  -H 'Content-Type: application/json'`,
    `  --data-binary ${shellQuoted(JSON.stringify(request))}`,
  ].join(" \\\n");
}
