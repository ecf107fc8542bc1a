import { afterAll, beforeAll, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pushRulesArtifact } from "../../src/oci/rules-artifact.ts";
import { sha256Digest } from "../../src/workspace/files/content-digest.ts";
import { temporaryDirectory } from "../support/temp-directory.ts";
import { startTestRegistry, type TestRegistry } from "../support/test-registry.ts";
import { requireTool } from "../support/system-tool.ts";

// skopeo (Debian's, 1.9) as a second client: what we push is a standard OCI artifact that others read and copy.

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const FILES = [
  { name: "orders.bundle.json", bytes: bytes('{"id":"orders","version":"1.0.0"}') },
  { name: "orders.bundle.json.sig", bytes: bytes("eyJhbGciOiJFZERTQSJ9.e30.c2ln") },
];

let registry: TestRegistry;
let digest: string;
let source: string;
const output = temporaryDirectory({});
beforeAll(async () => {
  registry = await startTestRegistry();
  ({ digest } = await pushRulesArtifact(`oci://${registry.host}/rules/shop:v1`, FILES));
  source = `docker://${registry.host}/rules/shop:v1`;
});
afterAll(async () => {
  await registry?.stop();
  output.remove();
});

function skopeo(...args: string[]): string {
  const run = Bun.spawnSync([requireTool("skopeo"), ...args], { stdout: "pipe", stderr: "pipe" });
  if (run.exitCode !== 0) throw new Error(`skopeo ${args.join(" ")} failed:\n${run.stderr.toString()}`);
  return run.stdout.toString();
}

test("skopeo inspect --raw gives the manifest we pushed, byte for byte", () => {
  const manifest = skopeo("inspect", "--raw", "--tls-verify=false", source);
  expect(sha256Digest(bytes(manifest))).toBe(digest);
  expect(JSON.parse(manifest).artifactType).toBe("application/vnd.rule-cascade.bundles.v1");
});

test("skopeo copy to a dir: gets the same layer bytes", () => {
  const directory = join(output.path, "dir");
  skopeo("copy", "--src-tls-verify=false", source, `dir:${directory}`);
  for (const file of FILES) {
    expect(readFileSync(join(directory, sha256Digest(file.bytes).slice("sha256:".length)))).toEqual(
      Buffer.from(file.bytes),
    );
  }
  expect(sha256Digest(readFileSync(join(directory, "manifest.json")))).toBe(digest);
});

test("skopeo copy to an oci: layout gets the same layer bytes and the manifest under its digest", () => {
  const layout = join(output.path, "layout");
  skopeo("copy", "--src-tls-verify=false", source, `oci:${layout}:v1`);
  const blobs = join(layout, "blobs", "sha256");
  for (const file of FILES) {
    expect(readFileSync(join(blobs, sha256Digest(file.bytes).slice("sha256:".length)))).toEqual(
      Buffer.from(file.bytes),
    );
  }
  expect(readdirSync(blobs)).toContain(digest.slice("sha256:".length));
  const index = JSON.parse(readFileSync(join(layout, "index.json"), "utf8"));
  expect(index.manifests[0].digest).toBe(digest);
});
