/** The server's root: the page is served at `<root>explorer/`, so this also holds under a path prefix. */
export function serverRoot(): URL {
  return new URL("../", location.href);
}

/** A public endpoint's address, relative to the server's root (`rulesets`, `evaluations`). */
export function endpoint(path: string): string {
  return new URL(path, serverRoot()).href;
}

/** The server answered other than 200, or could not be reached; the message says which, for people. */
export class EndpointError extends Error {
  readonly code = "ENDPOINT_FAILED" as const;
  override readonly name = "EndpointError";
  constructor(
    message: string,
    /** The HTTP status, or 0 when no answer came. */
    readonly status: number,
  ) {
    super(message);
  }
}

/** The problem document's title of a failed answer, or its status. */
export async function failureOf(path: string, response: Response): Promise<EndpointError> {
  let title = "";
  try {
    const problem = (await response.json()) as { title?: unknown };
    if (typeof problem.title === "string") title = `: ${problem.title}`;
  } catch {
    // Not a problem document: the status says enough.
  }
  return new EndpointError(`${path} answered ${response.status}${title}`, response.status);
}

/** GETs a public endpoint's JSON. */
export async function fetchJson<T>(path: string): Promise<T> {
  let response: Response;
  try {
    response = await fetch(endpoint(path), { headers: { Accept: "application/json" } });
  } catch (error) {
    throw new EndpointError(`${path} could not be reached: ${error instanceof Error ? error.message : String(error)}`, 0);
  }
  if (!response.ok) throw await failureOf(path, response);
  return (await response.json()) as T;
}
