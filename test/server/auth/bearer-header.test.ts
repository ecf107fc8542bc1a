import { describe, expect, test } from "bun:test";
import { bearerCredentials, isSpaceOrControl } from "../../../src/server/auth/bearer-header.ts";

describe("the token of an Authorization header", () => {
  test.each([
    ["Bearer abc.def", "abc.def"],
    ["bearer abc", "abc"],
    ["BEARER abc", "abc"],
    ["Bearer   abc", "abc"],
    ["Bearer abc  ", "abc"],
    ["Bearer jeton-été", "jeton-été"],
  ])("is read from %p", (header, token) => {
    expect(bearerCredentials(header)).toBe(token);
  });

  test.each([
    [null],
    [""],
    ["Bearer"],
    ["Bearer "],
    ["Bearer    "],
    ["Basic abc"],
    ["Bearerabc"],
    ["Bearers abc"],
    ["Bearer abc def"],
    ["Bearer abc\tdef"],
    ["Bearer abc\u00a0"],
    ["Bearer abc\u2028def"],
  ])("is none in %p", (header) => {
    expect(bearerCredentials(header)).toBeUndefined();
  });
});

test("whitespace and control characters are told from the rest", () => {
  for (const space of [
    0, 9, 10, 13, 32, 0x7f, 0xa0, 0x1680, 0x2000, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff,
  ])
    expect(isSpaceOrControl(space)).toBe(true);
  for (const other of [33, 65, 0x7e, 0xe9, 0x200b, 0x2030]) expect(isSpaceOrControl(other)).toBe(false);
});
