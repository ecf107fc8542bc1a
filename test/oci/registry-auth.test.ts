import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { RegistrySession } from "../../src/oci/registry-session.ts";
import { pullRulesArtifact, pushRulesArtifact } from "../../src/oci/rules-artifact.ts";
import { startTestRegistry, type TestRegistry } from "../support/test-registry.ts";
import { ociFailure } from "../support/oci-failure.ts";

const FILES = [{ name: "orders.bundle.json", bytes: new TextEncoder().encode('{"id":"orders"}') }];
const WRONG = { username: "rules-ci", password: "not-the-password" };

let basic: TestRegistry;
let token: TestRegistry;
beforeAll(async () => {
  [basic, token] = await Promise.all([startTestRegistry({ auth: "basic" }), startTestRegistry({ auth: "token" })]);
});
afterAll(async () => {
  await Promise.all([basic?.stop(), token?.stop()]);
});

for (const kind of ["basic", "token"] as const) {
  describe(`a registry with ${kind} authentication`, () => {
    const registry = (): TestRegistry => (kind === "basic" ? basic : token);

    test("takes a push and gives the pull with the right credentials", async () => {
      const ref = `oci://${registry().host}/rules/${kind}:v1`;
      const credentials = registry().credentials;
      const { digest } = await pushRulesArtifact(ref, FILES, { credentials });
      expect(await pullRulesArtifact(ref, { credentials })).toEqual({ unchanged: false, digest, files: FILES });
    });

    test("refuses wrong credentials, and none, with REGISTRY_AUTH_FAILED, never showing the password", async () => {
      const ref = `oci://${registry().host}/rules/${kind}:v1`;
      const wrong = await ociFailure(pushRulesArtifact(ref, FILES, { credentials: WRONG }));
      expect(wrong.code).toBe("REGISTRY_AUTH_FAILED");
      expect(wrong.message).not.toContain(WRONG.password);
      expect((await ociFailure(pullRulesArtifact(ref, { credentials: WRONG }))).code).toBe("REGISTRY_AUTH_FAILED");
      expect((await ociFailure(pullRulesArtifact(ref))).code).toBe("REGISTRY_AUTH_FAILED");
    });
  });
}

test("a session keeps its token per scope: pulling again does not ask the token server again", async () => {
  const ref = `oci://${token.host}/rules/reused:v1`;
  const credentials = token.credentials;
  const { digest } = await pushRulesArtifact(ref, FILES, { credentials });
  const session = new RegistrySession({ registry: token.host, plainHttp: true }, { credentials });
  await pullRulesArtifact(ref, { session });
  const issued = token.tokenServer!.requests();
  expect(await pullRulesArtifact(ref, { session, knownDigest: digest })).toEqual({ unchanged: true, digest });
  expect(await pullRulesArtifact(ref, { session })).toMatchObject({ unchanged: false, digest });
  expect(token.tokenServer!.requests()).toBe(issued);
});

test("a session asks for a new token once the last one has expired", async () => {
  const ref = `oci://${token.host}/rules/expiring:v1`;
  const credentials = token.credentials;
  const { digest } = await pushRulesArtifact(ref, FILES, { credentials });
  let now = Date.now();
  const session = new RegistrySession({ registry: token.host, plainHttp: true }, { credentials, now: () => now });
  await pullRulesArtifact(ref, { session, knownDigest: digest });
  const issued = token.tokenServer!.requests();
  now += 300_000; // the token server's tokens last 300 s
  await pullRulesArtifact(ref, { session, knownDigest: digest });
  expect(token.tokenServer!.requests()).toBe(issued + 1);
});
