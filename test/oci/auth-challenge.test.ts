import { expect, test } from "bun:test";
import { parseAuthChallenges } from "../../src/oci/auth-challenge.ts";

test("reads a Bearer challenge, commas inside quoted values included", () => {
  expect(
    parseAuthChallenges(
      'Bearer realm="https://auth.example/token",service="registry.example",scope="repository:a/b:pull,push"',
    ),
  ).toEqual([
    {
      scheme: "bearer",
      params: { realm: "https://auth.example/token", service: "registry.example", scope: "repository:a/b:pull,push" },
    },
  ]);
});

test("reads several challenges joined in one header, unquoted values and escapes", () => {
  expect(
    parseAuthChallenges('Basic realm="say \\"hi\\"", Bearer realm=https://a.example/t, error=invalid_token'),
  ).toEqual([
    { scheme: "basic", params: { realm: 'say "hi"' } },
    { scheme: "bearer", params: { realm: "https://a.example/t", error: "invalid_token" } },
  ]);
});

test("gives nothing for an empty header", () => {
  expect(parseAuthChallenges("")).toEqual([]);
});
