import { afterEach, beforeEach, expect, test } from "bun:test";
import { copyFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sha256Digest as bundleDigest } from "../../src/workspace/files/content-digest.ts";
import { TrustedKeys } from "../../src/signing/trusted-keys.ts";
import { PROJECT_ROOT, runCli } from "../support/run-cli.ts";
import { temporaryDirectory } from "../support/temp-directory.ts";

const LIBRARY = join(PROJECT_ROOT, "test/cases/interop/library");

let directory: { path: string; remove: () => void };
let kid: string;
beforeEach(async () => {
  directory = temporaryDirectory({});
  for (const name of ["library-base.bundle.json", "library-loans.bundle.json"])
    copyFileSync(join(LIBRARY, name), join(directory.path, name));
  const keygen = await runCli(["keygen", "--out", "release"], "", { cwd: directory.path });
  kid = /kid: +(\S+)/.exec(keygen.stdout)![1]!;
});
afterEach(() => directory.remove());

const inDirectory = (name: string) => join(directory.path, name);

test("sign writes <bundle>.sig beside each bundle, which the public key verifies with the bundle's claims", async () => {
  const run = await runCli(
    ["sign", "--key", "release.pem", "library-base.bundle.json", "library-loans.bundle.json"],
    "",
    { cwd: directory.path },
  );
  expect(run).toEqual({
    status: 0,
    stdout: `signed library-base.bundle.json.sig (kid ${kid})\nsigned library-loans.bundle.json.sig (kid ${kid})\n`,
    stderr: "",
  });
  const trusted = await TrustedKeys.read(inDirectory("release.pub.pem"));
  for (const name of ["library-base.bundle.json", "library-loans.bundle.json"]) {
    const bytes = readFileSync(inDirectory(name));
    const bundle = JSON.parse(bytes.toString("utf8"));
    const signature = readFileSync(inDirectory(`${name}.sig`), "utf8");
    expect(signature).toEndWith("\n");
    expect(signature.trim().split(".")).toHaveLength(3);
    expect(await trusted.verify(signature)).toEqual({
      claims: { id: bundle.id, version: bundle.version, checksum: bundle.checksum, digest: bundleDigest(bytes) },
      kid,
    });
  }
});

test("a file that is not a bundle is an error for that file, exit 1, and the others are still signed", async () => {
  writeFileSync(inDirectory("notes.json"), "not json");
  const run = await runCli(
    ["sign", "--key", "release.pem", "notes.json", "missing.bundle.json", "library-base.bundle.json"],
    "",
    { cwd: directory.path },
  );
  expect(run).toEqual({
    status: 1,
    stdout: `signed library-base.bundle.json.sig (kid ${kid})\n`,
    stderr:
      "rule-server sign: notes.json is not a bundle: it is not JSON\n" +
      "rule-server sign: cannot read missing.bundle.json (ENOENT)\n",
  });
  expect(existsSync(inDirectory("notes.json.sig"))).toBe(false);
  expect(existsSync(inDirectory("library-base.bundle.json.sig"))).toBe(true);
});

test("a key that cannot sign signs nothing: exit 1 with the reason", async () => {
  const run = await runCli(["sign", "--key", "release.pub.pem", "library-base.bundle.json"], "", {
    cwd: directory.path,
  });
  expect(run.status).toBe(1);
  expect(run.stdout).toBe("");
  expect(run.stderr).toStartWith("rule-server sign: release.pub.pem is a public key");
  expect(existsSync(inDirectory("library-base.bundle.json.sig"))).toBe(false);
  const missing = await runCli(["sign", "--key", "nope.pem", "library-base.bundle.json"], "", { cwd: directory.path });
  expect(missing.stderr).toBe("rule-server sign: cannot read the signing key nope.pem (ENOENT)\n");
});

test("sign without --key or without a bundle is a usage error", async () => {
  const noKey = await runCli(["sign", "library-base.bundle.json"], "", { cwd: directory.path });
  expect(noKey.status).toBe(2);
  expect(noKey.stderr).toStartWith("rule-server: sign: --key names the private key to sign with");
  const noBundle = await runCli(["sign", "--key", "release.pem"], "", { cwd: directory.path });
  expect(noBundle.status).toBe(2);
  expect(noBundle.stderr).toStartWith("rule-server: sign: name at least one bundle file");
});

test("sign --help prints its usage", async () => {
  const run = await runCli(["sign", "--help"]);
  expect(run.status).toBe(0);
  expect(run.stdout).toStartWith("Usage:\n  rule-server sign --key KEY.pem <bundle>...");
});
