import { afterEach, expect, test } from "bun:test";
import { RegistryClient } from "../../src/oci/registry-client.ts";
import { RegistrySession } from "../../src/oci/registry-session.ts";
import { sha256Digest } from "../../src/workspace/files/content-digest.ts";
import { type FakeRegistry, servedArtifact, startFakeRegistry } from "../support/fake-registry.ts";
import { ociFailure } from "../support/oci-failure.ts";

const BUNDLE = new TextEncoder().encode('{"id":"orders"}');
const DESCRIPTOR = { digest: sha256Digest(BUNDLE), size: BUNDLE.byteLength };
const ARTIFACT = servedArtifact([{ name: "orders.bundle.json", bytes: BUNDLE }]);
const CREDENTIALS = { username: "robot", password: "hunter2-secret" };
const BASIC = `Basic ${Buffer.from("robot:hunter2-secret").toString("base64")}`;

let fakes: FakeRegistry[] = [];
afterEach(async () => {
  await Promise.all(fakes.map((fake) => fake.stop()));
  fakes = [];
});

function fake(options: Parameters<typeof startFakeRegistry>[0]): FakeRegistry {
  const started = startFakeRegistry({ artifact: ARTIFACT, ...options });
  fakes.push(started);
  return started;
}

function clientOf(
  registry: FakeRegistry,
  options: ConstructorParameters<typeof RegistryClient>[1] = {},
): RegistryClient {
  return new RegistryClient({ registry: registry.host, plainHttp: true }, options);
}

test("a registry nobody listens on is REGISTRY_UNREACHABLE", async () => {
  const stopped = startFakeRegistry({});
  await stopped.stop();
  const error = await ociFailure(clientOf(stopped).getManifest("rules", "v1"));
  expect(error.code).toBe("REGISTRY_UNREACHABLE");
  expect(error.message).toContain(stopped.host);
});

test("a registry that does not answer is REGISTRY_TIMEOUT after the timeout", async () => {
  const hanging = fake({ answer: () => new Promise<Response>(() => {}) });
  const started = Date.now();
  expect((await ociFailure(clientOf(hanging, { timeoutMs: 200 }).getManifest("rules", "v1"))).code).toBe(
    "REGISTRY_TIMEOUT",
  );
  expect(Date.now() - started).toBeLessThan(5000);
});

test("a registry that stops sending in the middle of an answer is REGISTRY_TIMEOUT", async () => {
  const stalling = fake({
    answer: () => {
      const body = new ReadableStream<Uint8Array>({
        start: (controller) => controller.enqueue(BUNDLE.slice(0, 5)),
        pull: () => new Promise<void>(() => {}),
      });
      return new Response(body);
    },
  });
  expect((await ociFailure(clientOf(stalling, { timeoutMs: 200 }).getBlob("rules", DESCRIPTOR))).code).toBe(
    "REGISTRY_TIMEOUT",
  );
});

test("an unexpected answer is REGISTRY_REFUSED, with the status and the registry's error", async () => {
  const failing = fake({
    answer: () => Response.json({ errors: [{ code: "UNSUPPORTED", message: "no way" }] }, { status: 500 }),
  });
  const error = await ociFailure(clientOf(failing).getBlob("rules", DESCRIPTOR));
  expect(error).toMatchObject({ code: "REGISTRY_REFUSED", status: 500, registryCode: "UNSUPPORTED" });
  expect(error.message).toContain("UNSUPPORTED: no way");
});

test("a Bearer challenge is answered with a token from its realm (service, scope, Basic credentials), access_token accepted", async () => {
  const tokenRequests: URL[] = [];
  const registry = fake({
    answer: (request, url) => {
      if (url.pathname === "/token") {
        tokenRequests.push(url);
        if (request.headers.get("authorization") !== BASIC) return new Response(null, { status: 401 });
        return Response.json({ access_token: "opaque-token", expires_in: 120 });
      }
      if (request.headers.get("authorization") === "Bearer opaque-token") return undefined;
      const realm = `http://${url.host}/token`;
      return new Response(null, {
        status: 401,
        headers: { "www-authenticate": `Bearer realm="${realm}",service="fake",scope="repository:rules:pull"` },
      });
    },
  });
  const client = clientOf(registry, { credentials: CREDENTIALS });
  expect(await client.getBlob("rules", DESCRIPTOR)).toEqual(BUNDLE);
  expect(await client.getBlob("rules", DESCRIPTOR)).toEqual(BUNDLE);
  expect(tokenRequests.length).toBe(1);
  expect(tokenRequests[0]!.searchParams.get("service")).toBe("fake");
  expect(tokenRequests[0]!.searchParams.getAll("scope")).toEqual(["repository:rules:pull"]);
  // Once known, the token goes with the first try: the second blob takes one request.
  expect(registry.authorizations.filter((header) => header === "Bearer opaque-token").length).toBe(2);
});

test("a Basic challenge is answered with the credentials, sent on every later request", async () => {
  const registry = fake({
    answer: (request) =>
      request.headers.get("authorization") === BASIC
        ? undefined
        : new Response(null, { status: 401, headers: { "www-authenticate": 'Basic realm="fake"' } }),
  });
  const client = clientOf(registry, { credentials: CREDENTIALS });
  await client.getBlob("rules", DESCRIPTOR);
  await client.getBlob("rules", DESCRIPTOR);
  expect(registry.authorizations).toEqual([undefined, BASIC, BASIC]);
});

test("a 401 without a challenge, or without credentials for a Basic one, is REGISTRY_AUTH_FAILED", async () => {
  const bare = fake({ answer: () => new Response(null, { status: 401 }) });
  expect((await ociFailure(clientOf(bare).getBlob("rules", DESCRIPTOR))).code).toBe("REGISTRY_AUTH_FAILED");
  const basic = fake({
    answer: () => new Response(null, { status: 401, headers: { "www-authenticate": 'Basic realm="fake"' } }),
  });
  expect((await ociFailure(clientOf(basic).getBlob("rules", DESCRIPTOR))).code).toBe("REGISTRY_AUTH_FAILED");
  const denied = fake({
    answer: () => Response.json({ errors: [{ code: "DENIED", message: "no" }] }, { status: 403 }),
  });
  expect(await ociFailure(clientOf(denied).getBlob("rules", DESCRIPTOR))).toMatchObject({
    code: "REGISTRY_AUTH_FAILED",
    registryCode: "DENIED",
  });
});

test("a redirect to another origin (blob storage) is followed without the credentials", async () => {
  const storage = fake({ answer: () => new Response(BUNDLE) });
  const registry = fake({
    answer: (request, url) => {
      if (request.headers.get("authorization") !== BASIC) {
        return new Response(null, { status: 401, headers: { "www-authenticate": 'Basic realm="fake"' } });
      }
      return new Response(null, {
        status: 307,
        headers: { location: `http://${storage.host}/signed${url.pathname}?sig=1` },
      });
    },
  });
  expect(await clientOf(registry, { credentials: CREDENTIALS }).getBlob("rules", DESCRIPTOR)).toEqual(BUNDLE);
  expect(storage.requests).toEqual([`GET /signed/v2/rules/blobs/${DESCRIPTOR.digest}`]);
  expect(storage.authorizations).toEqual([undefined]);
});

test("a session is reused only for the registry it was made for", () => {
  const session = new RegistrySession({ registry: "127.0.0.1:5000", plainHttp: true });
  expect(new RegistryClient({ registry: "127.0.0.1:5000", plainHttp: true }, { session }).session).toBe(session);
  expect(new RegistryClient({ registry: "127.0.0.1:5001", plainHttp: true }, { session }).session).not.toBe(session);
});
