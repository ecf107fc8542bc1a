import { timingSafeEqual } from "node:crypto";
import { HttpError } from "./http-error.ts";

/**
 * Bearer authentication (RFC 6750) against the configured token. A missing header, another
 * scheme and a wrong token are all answered the same 401; tokens are compared in constant time.
 * `undefined` as the token means open mode: everything is allowed.
 */
export class BearerToken {
  private readonly expected: Buffer | undefined;

  constructor(token: string | undefined) {
    this.expected = token === undefined ? undefined : Buffer.from(token, "utf8");
  }

  get open(): boolean {
    return this.expected === undefined;
  }

  /** Throws a 401 HttpError unless the request carries the token. */
  require(request: Request): void {
    if (this.expected === undefined) return;
    const header = request.headers.get("authorization") ?? "";
    const match = /^Bearer +(\S+) *$/i.exec(header);
    if (!match || !this.matches(match[1]!)) {
      throw new HttpError(401, "a valid bearer token is required", { headers: { "WWW-Authenticate": "Bearer" } });
    }
  }

  private matches(candidate: string): boolean {
    const given = Buffer.from(candidate, "utf8");
    const expected = this.expected!;
    // Compare equal lengths only; a wrong length still costs one comparison.
    if (given.length !== expected.length) {
      timingSafeEqual(expected, expected);
      return false;
    }
    return timingSafeEqual(given, expected);
  }
}
