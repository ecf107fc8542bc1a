import { HttpError } from "./http-error.ts";

/**
 * Bearer authentication (RFC 6750) against the configured token. A missing header, another
 * scheme and a wrong token are all answered the same 401; tokens are compared in constant time.
 * `undefined` as the token means open mode: everything is allowed.
 */
export class BearerToken {
  constructor(private readonly expected: string | undefined) {}

  get open(): boolean {
    return this.expected === undefined;
  }

  /** Whether the request carries the token (always, in open mode). */
  accepts(request: Request): boolean {
    if (this.expected === undefined) return true;
    const candidate = bearerCredentials(request.headers.get("authorization"));
    return candidate !== undefined && sameInConstantTime(candidate, this.expected);
  }

  /** Throws a 401 HttpError unless the request carries the token. */
  require(request: Request): void {
    if (!this.accepts(request))
      throw new HttpError(401, "a valid bearer token is required", { headers: { "WWW-Authenticate": "Bearer" } });
  }
}

/** The token of `Bearer <token>`: the scheme in any case, spaces after it, trailing spaces allowed. */
function bearerCredentials(header: string | null): string | undefined {
  if (header === null || header.length < 7 || header.slice(0, 6).toLowerCase() !== "bearer") return undefined;
  let start = 6;
  while (header.charCodeAt(start) === 32) start++;
  if (start === 6) return undefined;
  let end = header.length;
  while (end > start && header.charCodeAt(end - 1) === 32) end--;
  if (end === start) return undefined;
  for (let i = start; i < end; i++) if (isSpaceOrControl(header.charCodeAt(i))) return undefined;
  return header.slice(start, end);
}

/** Whitespace inside the credentials (`\S` in the RFC 6750 grammar's terms) makes the header invalid. */
function isSpaceOrControl(code: number): boolean {
  return (
    code <= 32 ||
    code === 0x7f ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/**
 * Compares every code unit of the expected token, whatever the candidate, so the time taken says
 * nothing about how much of a guess was right; only the expected length is fixed.
 */
function sameInConstantTime(candidate: string, expected: string): boolean {
  let difference = candidate.length ^ expected.length;
  for (let i = 0; i < expected.length; i++)
    difference |= expected.charCodeAt(i) ^ candidate.charCodeAt(i % Math.max(candidate.length, 1));
  return difference === 0;
}
