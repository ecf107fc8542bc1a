/** One challenge of a `WWW-Authenticate` header: `Bearer realm="…",service="…",scope="…"` or `Basic realm="…"`. */
export interface AuthChallenge {
  /** Lowercase: `bearer`, `basic`, … */
  readonly scheme: string;
  /** Parameter names lowercase, values unquoted. */
  readonly params: Readonly<Record<string, string>>;
}

const TOKEN = /[!#$%&'*+.^_`|~0-9A-Za-z-]+/y;
// Unquoted values are taken up to the next comma or space: some servers leave URLs unquoted.
const BARE_VALUE = /[^,\s]*/y;

/**
 * The challenges of a `WWW-Authenticate` header (RFC 9110 section 11.6.1), in order. Several
 * headers arrive joined by commas, which the grammar allows: a token not followed by `=` starts
 * the next challenge. Parameters before any scheme are dropped.
 */
export function parseAuthChallenges(header: string): AuthChallenge[] {
  const challenges: { scheme: string; params: Record<string, string> }[] = [];
  let at = 0;
  const skip = (characters: string): void => {
    while (at < header.length && characters.includes(header[at]!)) at++;
  };
  const token = (): string | undefined => {
    TOKEN.lastIndex = at;
    const match = TOKEN.exec(header);
    if (!match) return undefined;
    at = TOKEN.lastIndex;
    return match[0];
  };
  while (at < header.length) {
    skip(" \t,");
    const name = token();
    if (name === undefined) {
      at++; // a character no grammar allows here: step over it
      continue;
    }
    skip(" \t");
    if (header[at] !== "=") {
      challenges.push({ scheme: name.toLowerCase(), params: {} });
      continue;
    }
    at++;
    skip(" \t");
    const value = header[at] === '"' ? quotedString() : bareValue();
    const current = challenges.at(-1);
    if (current) current.params[name.toLowerCase()] = value;
  }
  return challenges;

  function bareValue(): string {
    BARE_VALUE.lastIndex = at;
    const value = BARE_VALUE.exec(header)![0];
    at += value.length;
    return value;
  }

  function quotedString(): string {
    let value = "";
    at++;
    while (at < header.length && header[at] !== '"') {
      if (header[at] === "\\" && at + 1 < header.length) at++;
      value += header[at];
      at++;
    }
    at++;
    return value;
  }
}
