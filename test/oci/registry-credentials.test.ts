import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { OciError } from "../../src/oci/oci-error.ts";
import { registryCredentials } from "../../src/oci/registry-credentials.ts";
import { temporaryDirectory } from "../support/temp-directory.ts";

const base64 = (text: string): string => Buffer.from(text).toString("base64");
let removers: (() => void)[] = [];
afterEach(() => {
  for (const remove of removers) remove();
  removers = [];
});

/** A home directory whose ~/.docker/config.json holds `config` (as JSON, or as given when text). */
function homeWithDockerConfig(config: unknown): string {
  const home = temporaryDirectory({});
  removers.push(home.remove);
  mkdirSync(join(home.path, ".docker"));
  writeFileSync(
    join(home.path, ".docker", "config.json"),
    typeof config === "string" ? config : JSON.stringify(config),
  );
  return home.path;
}

function invalid(run: () => unknown): OciError {
  try {
    run();
  } catch (error) {
    expect((error as OciError).code).toBe("REGISTRY_CREDENTIALS_INVALID");
    return error as OciError;
  }
  throw new Error("accepted");
}

describe("registryCredentials", () => {
  test("takes RULE_SERVER_REGISTRY_AUTH first, split at its first colon", () => {
    const home = homeWithDockerConfig({ auths: { "r.example": { auth: base64("docker:user") } } });
    const env = { RULE_SERVER_REGISTRY_AUTH: "ci:pa:ss" };
    expect(registryCredentials("r.example", { env, home })).toEqual({ username: "ci", password: "pa:ss" });
  });

  test("refuses a RULE_SERVER_REGISTRY_AUTH that is not user:password, without repeating it", () => {
    const error = invalid(() =>
      registryCredentials("r.example", { env: { RULE_SERVER_REGISTRY_AUTH: "tokenonly" }, home: "/nonexistent" }),
    );
    expect(error.message).not.toContain("tokenonly");
  });

  test("reads the registry's auth from ~/.docker/config.json, whatever the key's scheme and path", () => {
    const home = homeWithDockerConfig({
      auths: {
        "other.example": { auth: base64("other:x") },
        "https://r.example:5000/v2/": { auth: base64("robot:s3cret") },
        "https://index.docker.io/v1/": { auth: base64("hub:y") },
      },
    });
    expect(registryCredentials("r.example:5000", { env: {}, home })).toEqual({ username: "robot", password: "s3cret" });
    expect(registryCredentials("docker.io", { env: {}, home })).toEqual({ username: "hub", password: "y" });
    expect(registryCredentials("r.example", { env: {}, home })).toBeUndefined();
  });

  test("reads username and password fields when an entry has no auth", () => {
    const home = homeWithDockerConfig({ auths: { "r.example": { username: "u", password: "p" } } });
    expect(registryCredentials("r.example", { env: {}, home })).toEqual({ username: "u", password: "p" });
  });

  test("looks in $DOCKER_CONFIG instead of the home directory when it is set", () => {
    const config = temporaryDirectory({
      "config.json": JSON.stringify({ auths: { "r.example": { auth: base64("a:b") } } }),
    });
    removers.push(config.remove);
    const home = homeWithDockerConfig({ auths: { "r.example": { auth: base64("home:x") } } });
    expect(registryCredentials("r.example", { env: { DOCKER_CONFIG: config.path }, home })).toEqual({
      username: "a",
      password: "b",
    });
  });

  test("has none when there is no config, or no entry with credentials (a credential store's)", () => {
    expect(registryCredentials("r.example", { env: {}, home: "/nonexistent" })).toBeUndefined();
    const home = homeWithDockerConfig({ auths: { "r.example": {} }, credsStore: "desktop" });
    expect(registryCredentials("r.example", { env: {}, home })).toBeUndefined();
  });

  test("refuses a config that is not JSON, or an auth that is not base64 of user:password", () => {
    invalid(() => registryCredentials("r.example", { env: {}, home: homeWithDockerConfig("{not json") }));
    const home = homeWithDockerConfig({ auths: { "r.example": { auth: base64("nocolon") } } });
    expect(invalid(() => registryCredentials("r.example", { env: {}, home })).message).not.toContain("nocolon");
  });
});
