import { describe, expect, test } from "bun:test";
import { BearerToken } from "../../../src/server/http/bearer-token.ts";
import { HttpError } from "../../../src/server/http/http-error.ts";

const TOKEN = "s3cret-token";

function statusFor(authorization: string | undefined, token: string | undefined): number {
  const request = new Request("http://localhost/", {
    headers: authorization === undefined ? {} : { Authorization: authorization },
  });
  try {
    new BearerToken(token).require(request);
    return 200;
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    expect(error.options.headers?.["WWW-Authenticate"]).toBe("Bearer");
    return error.status;
  }
}

describe("a bearer token", () => {
  test.each([
    [`Bearer ${TOKEN}`],
    [`bearer ${TOKEN}`],
    [`BEARER ${TOKEN}`],
    [`Bearer   ${TOKEN}`],
    [`Bearer ${TOKEN}  `],
  ])("is accepted as %p", (header) => {
    expect(statusFor(header, TOKEN)).toBe(200);
  });

  test.each([
    [undefined],
    [""],
    ["Bearer"],
    ["Bearer "],
    [`Basic ${TOKEN}`],
    [`Bearer${TOKEN}`],
    [`Bearer ${TOKEN}x`],
    [`Bearer ${TOKEN.slice(0, -1)}`],
    [`Bearer ${TOKEN.toUpperCase()}`],
    [`Bearer x${TOKEN}`],
    [`Bearer ${TOKEN} extra`],
    [`Bearer ${TOKEN}\u00a0`],
    [`Bearers ${TOKEN}`],
  ])("is refused 401 for %p", (header) => {
    expect(statusFor(header, TOKEN)).toBe(401);
  });

  test("is not asked for in open mode", () => {
    expect(statusFor(undefined, undefined)).toBe(200);
    expect(new BearerToken(undefined).open).toBe(true);
    expect(new BearerToken(TOKEN).open).toBe(false);
  });

  test("of other characters than ASCII compares by code unit", () => {
    expect(statusFor("Bearer jeton-été", "jeton-été")).toBe(200);
    expect(statusFor("Bearer jeton-ete", "jeton-été")).toBe(401);
  });
});
