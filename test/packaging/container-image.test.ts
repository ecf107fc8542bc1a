import { afterAll, beforeAll, expect, test } from "bun:test";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import packageJson from "../../package.json" with { type: "json" };
import { MEDIA_TYPES, sha256 } from "../../src/packaging/oci-image-writer.ts";
import { sharedLibraries } from "../../src/packaging/shared-libraries.ts";
import { buildRelease, releaseBuild } from "../support/build-release.ts";
import { requireImageNamespace, runInImageNamespace, spawnInImageNamespace } from "../support/image-namespace.ts";
import { logWatcher } from "../support/log-watcher.ts";
import { IMAGE_ID } from "../support/namespace-preflight.ts";
import { podmanSandbox } from "../support/podman-sandbox.ts";
import { PROJECT_ROOT } from "../support/run-cli.ts";
import { requireTool } from "../support/system-tool.ts";

/**
 * The image `make image` writes, the test run's build held against a fresh one (the same bytes
 * both times), unpacked by hand: its layout and digests checked, its configuration read, its root
 * file system run as the image's user with nothing of this machine's libraries, and the archive
 * run for real with podman.
 *
 * Root or not: an ordinary user unpacks, runs and removes the image's root in a user namespace of
 * their own (test/support/image-namespace.ts), and runs podman rootless.
 */
const IMAGE = `rule-server-${packageJson.version}-linux-x64.oci.tar`;
const TOKEN = "image-test-token";
let shared: string;
let fresh: string;
let work: string;
let layout: string;
let rootfs: string;
let manifest: any;
let config: any;
let layer: Uint8Array;

const blob = (digest: string): Uint8Array =>
  readFileSync(join(layout, "blobs", "sha256", digest.slice("sha256:".length)));
const git = (...args: string[]): string =>
  Bun.spawnSync(["git", ...args], { cwd: PROJECT_ROOT })
    .stdout.toString()
    .trim();

beforeAll(() => {
  // Before the builds: what this machine lacks is said at once, with how to provide it.
  requireImageNamespace();
  shared = releaseBuild("image");
  fresh = buildRelease("image");
  work = mkdtempSync(join(tmpdir(), "rule-server-image-"));
  layout = join(work, "layout");
  rootfs = join(work, "rootfs");
  mkdirSync(layout);
  mkdirSync(rootfs);
  const tar = requireTool("tar");
  const untar = Bun.spawnSync([tar, "-xf", join(shared, IMAGE), "-C", layout], { stderr: "pipe" });
  if (untar.exitCode !== 0) throw new Error(untar.stderr.toString());
  const index = JSON.parse(readFileSync(join(layout, "index.json"), "utf8"));
  manifest = JSON.parse(Buffer.from(blob(index.manifests[0].digest)).toString());
  config = JSON.parse(Buffer.from(blob(manifest.config.digest)).toString());
  layer = blob(manifest.layers[0].digest);
  // As root of a namespace, so that the files are owned by 0 and 65532 there, as in a container.
  runInImageNamespace([
    tar,
    "--numeric-owner",
    "--same-owner",
    "-xzf",
    join(layout, "blobs", "sha256", manifest.layers[0].digest.slice("sha256:".length)),
    "-C",
    rootfs,
  ]);
  cpSync(join(PROJECT_ROOT, "rules"), join(rootfs, "rules"), { recursive: true });
  // Where a container runtime mounts /proc, which Bun reads to find its own executable.
  mkdirSync(join(rootfs, "proc"));
}, 180000);
afterAll(() => {
  if (fresh) rmSync(fresh, { recursive: true, force: true });
  // The unpacked root holds files of the image's user, which only a namespace mapping it may remove.
  if (work) runInImageNamespace([requireTool("rm"), "-rf", work]);
});

test("a fresh build gives the same image archive as the shared one, byte for byte", () => {
  expect(Buffer.compare(readFileSync(join(shared, IMAGE)), readFileSync(join(fresh, IMAGE)))).toBe(0);
});

test("an OCI layout whose index, manifest, configuration and layer match their digests and sizes", () => {
  expect(JSON.parse(readFileSync(join(layout, "oci-layout"), "utf8"))).toEqual({ imageLayoutVersion: "1.0.0" });
  const index = JSON.parse(readFileSync(join(layout, "index.json"), "utf8"));
  expect(index.mediaType).toBe(MEDIA_TYPES.index);
  expect(index.manifests).toHaveLength(1);
  expect(index.manifests[0].annotations["org.opencontainers.image.ref.name"]).toBe(
    `rule-server:${packageJson.version}`,
  );
  expect(index.manifests[0].platform).toEqual({ architecture: "amd64", os: "linux" });
  const descriptors = [index.manifests[0], manifest.config, ...manifest.layers];
  expect(descriptors.map((descriptor) => descriptor.mediaType)).toEqual([
    MEDIA_TYPES.manifest,
    MEDIA_TYPES.config,
    MEDIA_TYPES.layer,
  ]);
  for (const descriptor of descriptors) {
    expect(sha256(blob(descriptor.digest))).toBe(descriptor.digest);
    expect(blob(descriptor.digest).length).toBe(descriptor.size);
  }
  // Every blob is named for its content, and nothing else is stored.
  for (const name of readdirSync(join(layout, "blobs", "sha256")))
    expect(sha256(blob(`sha256:${name}`))).toBe(`sha256:${name}`);
  expect(readdirSync(join(layout, "blobs", "sha256")).sort()).toEqual(
    descriptors.map((descriptor) => descriptor.digest.slice(7)).sort(),
  );
  expect(config.rootfs).toEqual({ type: "layers", diff_ids: [sha256(gunzipSync(layer))] });
});

test("the configuration: non-root user, entry point, RULES_DIR, port, stop signal and labels", () => {
  const created = new Date(Number(git("log", "-1", "--format=%ct")) * 1000).toISOString().replace(".000Z", "Z");
  expect(config.architecture).toBe("amd64");
  expect(config.os).toBe("linux");
  expect(config.created).toBe(created);
  expect(config.config.User).toBe("65532:65532");
  expect(config.config.Entrypoint).toEqual(["/usr/local/bin/rule-server"]);
  expect(config.config.Env).toContain("RULES_DIR=/rules");
  expect(config.config.Env).toContain("PORT=8080");
  expect(config.config.Env.some((entry: string) => entry.startsWith("RULE_SERVER_TOKEN"))).toBe(false);
  expect(config.config.ExposedPorts).toEqual({ "8080/tcp": {} });
  expect(config.config.StopSignal).toBe("SIGTERM");
  expect(config.config.Labels).toEqual({
    "org.opencontainers.image.created": created,
    "org.opencontainers.image.description": packageJson.description,
    "org.opencontainers.image.licenses": "Apache-2.0",
    // A build from a tree with uncommitted changes says so (src/packaging/build-provenance.ts).
    "org.opencontainers.image.revision": `${git("rev-parse", "HEAD")}${git("status", "--porcelain=v1", "--untracked-files=all") === "" ? "" : "-dirty"}`,
    "org.opencontainers.image.title": "rule-server",
    "org.opencontainers.image.version": packageJson.version,
  });
});

test("the root file system holds the executable, the user, and exactly the libraries ldd names", () => {
  // Listed in the namespace: the image's user's home is theirs alone, out of an ordinary user's reach.
  const files = runInImageNamespace([requireTool("find"), rootfs, "-type", "f", "-printf", "%P\\n"])
    .split("\n")
    .filter(Boolean);
  const libraries = sharedLibraries(join(shared, "rule-server-linux-x64")).map((path) => realpathSync(path).slice(1));
  expect(files.filter((file) => !file.startsWith("rules/")).sort()).toEqual(
    ["etc/group", "etc/passwd", "usr/local/bin/rule-server", ...libraries].sort(),
  );
  expect(readFileSync(join(rootfs, "etc/passwd"), "utf8")).toContain("nonroot:x:65532:65532:");
  expect(readFileSync(join(rootfs, "etc/group"), "utf8")).toContain("nonroot:x:65532:");
});

async function evaluate(url: string): Promise<{ decision: string; findings: { code: string }[] }> {
  const response = await fetch(`${url}/evaluations`, {
    method: "POST",
    headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" },
    body: JSON.stringify({
      ruleset: "acme.payments.transfers",
      entity: "Transfer",
      operation: "create",
      data: {
        id: "TRF-200010",
        amount: 30000,
        reference: "Machine parts",
        debtor: { iban: "DE89370400440532013000", country: "DE" },
        beneficiary: { iban: "AT611904300234573201", country: "AT" },
      },
      actor: { id: "u-2001", roles: ["treasury-manager"] },
      ctx: { now: "2026-03-02T09:30:00Z" },
    }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { decision: string; findings: { code: string }[] };
}

test("run from the unpacked root as 65532, it serves /readyz and evaluates the rules at /rules", async () => {
  // The image's environment and the test's settings, nothing of the host's (its PATH included).
  const env = [...(config.config.Env as string[]), "PORT=0", `RULE_SERVER_TOKEN=${TOKEN}`, "RULE_SERVER_WORKERS=2"];
  // Namespaces of its own, /proc mounted in the root as a runtime would, then chroot as the image's user.
  const child = spawnInImageNamespace(
    [
      requireTool("env"),
      "-i",
      ...env,
      requireTool("chroot"),
      `--userspec=${IMAGE_ID}:${IMAGE_ID}`,
      rootfs,
      ...config.config.Entrypoint,
    ],
    { mountProc: join(rootfs, "proc"), killChild: true },
  );
  const output = logWatcher(child.stdout as ReadableStream<Uint8Array>);
  try {
    // Should it exit instead, what unshare, chroot or the server said is in its standard error.
    await output.waitFor(/"msg":"listening"/).catch(async (error: Error) => {
      throw new Error(
        `${error.message}\nstandard error:\n${await new Response(child.stderr as ReadableStream<Uint8Array>).text()}`,
      );
    });
    expect(output.log()).toContain('"rulesets":3');
    const url = `http://127.0.0.1:${/"port":(\d+)/.exec(output.log())![1]}`;
    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(200);
    const result = await evaluate(url);
    expect(result.decision).toBe("deny");
    expect(result.findings.map((finding) => finding.code)).toContain("ACME-PAY-005");
  } finally {
    // The server is the first process of its own PID namespace, running as another user, so the
    // death signal of --kill-child no longer reaches it: it is stopped by its PID on this host
    // (an ordinary user may: the user namespace it runs in is theirs).
    for (const pid of childrenOf(child.pid)) process.kill(pid, "SIGKILL");
    child.kill("SIGKILL");
    await child.exited;
  }
}, 60000);

/** The PIDs of a process's children, from /proc. */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

test("podman loads the archive and runs it: ready, evaluating, and draining on its stop signal", async () => {
  // Storage, configuration and runtime files of its own: the test leaves nothing in the machine's images nor in $HOME.
  const podman = podmanSandbox(join(work, "podman"));
  const load = podman.run("load", "-i", join(shared, IMAGE));
  expect(load.stdout, load.stderr).toContain(`Loaded image: localhost/rule-server:${packageJson.version}`);
  const name = `rule-server-image-test-${process.pid}`;
  // A port free now: the container shares the host's network.
  const probe = Bun.serve({ port: 0, fetch: () => new Response() });
  const port = probe.port;
  probe.stop(true);
  // Fixed small limits, which a runtime without CAP_SYS_RESOURCE (rootless) can still set.
  const run = podman.run(
    "run",
    "-d",
    "--name",
    name,
    "--network=host",
    "--ulimit",
    "nofile=1024:1024",
    "--ulimit",
    "nproc=1024:1024",
    "-e",
    `PORT=${port}`,
    "-e",
    `RULE_SERVER_TOKEN=${TOKEN}`,
    "-e",
    "DRAIN_SECONDS=1",
    "-v",
    `${join(PROJECT_ROOT, "rules")}:/rules:ro`,
    `rule-server:${packageJson.version}`,
  );
  try {
    expect(run.stderr).toBe("");
    const url = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 20000;
    let ready: Response | undefined;
    while (Date.now() < deadline) {
      ready = await fetch(`${url}/readyz`).catch(() => undefined);
      if (ready?.status === 200) break;
      await Bun.sleep(200);
    }
    expect(ready?.status).toBe(200);
    expect((await evaluate(url)).decision).toBe("deny");
    const inspect = JSON.parse(podman.run("inspect", name).stdout)[0];
    expect(inspect.Config.User).toBe("65532:65532");
    podman.run("stop", "-t", "20", name);
    expect(podman.run("logs", name).stdout).toContain('"msg":"draining"');
    expect(JSON.parse(podman.run("inspect", name).stdout)[0].State.ExitCode).toBe(0);
  } finally {
    podman.run("rm", "-f", name);
    podman.run("rmi", "-af");
    podman.stop();
  }
}, 90000);
