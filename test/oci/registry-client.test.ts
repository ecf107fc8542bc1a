import { afterEach, describe, expect, test } from "bun:test";
import { type AddressInfo, createServer } from "node:net";
import { OCI_MANIFEST } from "../../src/oci/media-types.ts";
import { RegistryClient } from "../../src/oci/registry-client.ts";
import { sha256Digest } from "../../src/workspace/files/content-digest.ts";
import { type FakeRegistry, servedArtifact, startFakeRegistry } from "../support/fake-registry.ts";
import { ociFailure } from "../support/oci-failure.ts";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const BUNDLE = bytes(JSON.stringify({ id: "orders", version: "1.0.0", rules: [] }));
const DESCRIPTOR = { digest: sha256Digest(BUNDLE), size: BUNDLE.byteLength };
const ARTIFACT = servedArtifact([{ name: "orders.bundle.json", bytes: BUNDLE }]);

let fakes: FakeRegistry[] = [];
afterEach(async () => {
  await Promise.all(fakes.map((fake) => fake.stop()));
  fakes = [];
});

/** A client of a fake registry that answers with `answer` before serving ARTIFACT. */
function clientOf(
  answer: Parameters<typeof startFakeRegistry>[0]["answer"],
  limits = {},
): { client: RegistryClient; fake: FakeRegistry } {
  const fake = startFakeRegistry({ artifact: ARTIFACT, answer });
  fakes.push(fake);
  return { client: new RegistryClient({ registry: fake.host, plainHttp: true }, limits), fake };
}

const isBlob = (url: URL): boolean => url.pathname.includes("/blobs/");
const isManifest = (url: URL): boolean => url.pathname.includes("/manifests/");

describe("getBlob", () => {
  test("gives the bytes whose digest the descriptor names", async () => {
    const { client } = clientOf(undefined);
    expect(await client.getBlob("rules", DESCRIPTOR)).toEqual(BUNDLE);
  });

  test("refuses a tampered blob (same size, other bytes) with BLOB_DIGEST_MISMATCH", async () => {
    const tampered = BUNDLE.slice();
    tampered[10] = tampered[10]! ^ 1;
    const { client } = clientOf((_, url) => (isBlob(url) ? new Response(tampered) : undefined));
    expect((await ociFailure(client.getBlob("rules", DESCRIPTOR))).code).toBe("BLOB_DIGEST_MISMATCH");
  });

  test("refuses a truncated blob with BLOB_DIGEST_MISMATCH", async () => {
    const { client } = clientOf((_, url) => (isBlob(url) ? new Response(BUNDLE.slice(0, 20)) : undefined));
    const error = await ociFailure(client.getBlob("rules", DESCRIPTOR));
    expect(error.code).toBe("BLOB_DIGEST_MISMATCH");
    expect(error.message).toContain(`truncated: 20 of ${BUNDLE.byteLength} bytes`);
  });

  test("refuses a blob whose answer breaks off with BLOB_DIGEST_MISMATCH", async () => {
    // A raw server: it promises the whole blob, sends 20 bytes and closes the connection.
    const server = createServer((socket) =>
      socket.once("data", () => {
        socket.write(`HTTP/1.1 200 OK\r\nContent-Length: ${BUNDLE.byteLength}\r\n\r\n`);
        socket.write(BUNDLE.slice(0, 20), () => socket.destroy());
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const client = new RegistryClient({ registry: `127.0.0.1:${port}`, plainHttp: true });
      const error = await ociFailure(client.getBlob("rules", DESCRIPTOR));
      expect(error.code).toBe("BLOB_DIGEST_MISMATCH");
      expect(error.message).toContain("truncated: the answer broke off after");
    } finally {
      server.close();
    }
  });

  test("refuses a blob longer than its descriptor says with BLOB_TOO_LARGE", async () => {
    const longer = new Uint8Array([...BUNDLE, 32]);
    const { client } = clientOf((_, url) => (isBlob(url) ? new Response(longer) : undefined));
    expect((await ociFailure(client.getBlob("rules", DESCRIPTOR))).code).toBe("BLOB_TOO_LARGE");
  });

  test("refuses a blob over the limit without asking for it", async () => {
    const { client, fake } = clientOf(undefined, { maxBlobBytes: 10 });
    expect((await ociFailure(client.getBlob("rules", DESCRIPTOR))).code).toBe("BLOB_TOO_LARGE");
    expect(fake.requests).toEqual([]);
  });
});

describe("getManifest", () => {
  test("gives the manifest's bytes and digest, by tag or by digest", async () => {
    const { client } = clientOf(undefined);
    const expected = { bytes: ARTIFACT.manifest, digest: ARTIFACT.digest, mediaType: OCI_MANIFEST };
    expect(await client.getManifest("rules", "v1")).toEqual(expected);
    expect(await client.getManifest("rules", ARTIFACT.digest)).toEqual(expected);
  });

  test("refuses a manifest over the size limit that Content-Length announces", async () => {
    const { client } = clientOf(undefined, { maxManifestBytes: ARTIFACT.manifest.byteLength - 1 });
    expect((await ociFailure(client.getManifest("rules", "v1"))).code).toBe("MANIFEST_TOO_LARGE");
  });

  test("stops reading an endless manifest at the size limit", async () => {
    const { client } = clientOf((_, url) => {
      if (!isManifest(url)) return undefined;
      const endless = new ReadableStream<Uint8Array>({
        pull: (controller) => controller.enqueue(new Uint8Array(64 * 1024)),
      });
      return new Response(endless, { headers: { "content-type": OCI_MANIFEST } });
    });
    const error = await ociFailure(client.getManifest("rules", "v1"));
    expect(error.code).toBe("MANIFEST_TOO_LARGE");
  });

  test("refuses a manifest whose bytes are not the digest asked for, or announced", async () => {
    const other = `sha256:${"a".repeat(64)}`;
    const { client } = clientOf(undefined);
    expect((await ociFailure(client.getManifest("rules", other))).code).toBe("MANIFEST_DIGEST_MISMATCH");
    const lying = clientOf((_, url) =>
      isManifest(url) ? new Response(ARTIFACT.manifest, { headers: { "docker-content-digest": other } }) : undefined,
    ).client;
    expect((await ociFailure(lying.getManifest("rules", "v1"))).code).toBe("MANIFEST_DIGEST_MISMATCH");
  });

  test("a missing manifest is MANIFEST_NOT_FOUND, for HEAD and GET", async () => {
    const { client } = clientOf((_, url) => (isManifest(url) ? new Response(null, { status: 404 }) : undefined));
    expect((await ociFailure(client.getManifest("rules", "v1"))).code).toBe("MANIFEST_NOT_FOUND");
    expect((await ociFailure(client.manifestDigest("rules", "v1"))).code).toBe("MANIFEST_NOT_FOUND");
  });
});

describe("pushes", () => {
  /** Answers an upload as a registry does; PUT of a manifest answered by `manifestAnswer`. */
  const uploads = (manifestAnswer: () => Response) => (request: Request, url: URL) => {
    if (request.method === "HEAD" && isBlob(url)) return new Response(null, { status: 404 });
    if (request.method === "POST")
      return new Response(null, { status: 202, headers: { location: "/upload/1?_state=a%3D" } });
    if (request.method === "PUT" && url.pathname.startsWith("/upload/")) return new Response(null, { status: 201 });
    if (request.method === "PUT" && isManifest(url)) return manifestAnswer();
    return undefined;
  };

  test("a blob upload keeps the registry's own query parameters and adds the digest", async () => {
    let finished: string | undefined;
    const { client } = clientOf((request, url) => {
      if (request.method === "PUT") finished = url.search;
      return uploads(() => new Response(null, { status: 201 }))(request, url);
    });
    await client.pushBlob("rules", BUNDLE);
    expect(finished).toBe(`?_state=a%3D&digest=${encodeURIComponent(DESCRIPTOR.digest)}`);
  });

  test("a manifest the registry stores under another digest is MANIFEST_DIGEST_MISMATCH", async () => {
    const { client } = clientOf(
      uploads(
        () => new Response(null, { status: 201, headers: { "docker-content-digest": `sha256:${"b".repeat(64)}` } }),
      ),
    );
    const error = await ociFailure(client.pushManifest("rules", "v1", ARTIFACT.manifest, OCI_MANIFEST));
    expect(error.code).toBe("MANIFEST_DIGEST_MISMATCH");
  });

  test("a refused manifest is REGISTRY_REFUSED with the registry's error code", async () => {
    const { client } = clientOf(
      uploads(() =>
        Response.json(
          { errors: [{ code: "MANIFEST_BLOB_UNKNOWN", message: "blob unknown to registry" }] },
          { status: 400 },
        ),
      ),
    );
    const error = await ociFailure(client.pushManifest("rules", "v1", ARTIFACT.manifest, OCI_MANIFEST));
    expect(error).toMatchObject({ code: "REGISTRY_REFUSED", status: 400, registryCode: "MANIFEST_BLOB_UNKNOWN" });
    expect(error.message).toContain("blob unknown to registry");
  });
});
