import { FetchRulesetError } from "../browser/rule-cascade.ts";

/** The server's root: the page is served at `<root>explorer/`, so this also holds under a path prefix. */
function serverRoot(): URL {
  return new URL("../", location.href);
}

/** A public endpoint's address, relative to the server's root (`rulesets`, `evaluations`). */
export function endpoint(path: string): string {
  return new URL(path, serverRoot()).href;
}

/** GETs a public endpoint's JSON. */
export async function fetchJson<T>(path: string): Promise<T> {
  let response: Response;
  try {
    response = await fetch(endpoint(path), { headers: { Accept: "application/json" } });
  } catch (error) {
    throw new FetchRulesetError(
      `${path} could not be reached: ${error instanceof Error ? error.message : String(error)}`,
      0,
    );
  }
  if (!response.ok) throw await FetchRulesetError.answered(path, response);
  return (await response.json()) as T;
}
