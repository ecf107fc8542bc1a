import { afterEach, beforeEach, expect, test } from "bun:test";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readSigningKey } from "../../src/signing/signing-key.ts";
import { TrustedKeys } from "../../src/signing/trusted-keys.ts";
import { runCli } from "../support/run-cli.ts";
import { temporaryDirectory } from "../support/temp-directory.ts";

let directory: { path: string; remove: () => void };
beforeEach(() => {
  directory = temporaryDirectory({});
});
afterEach(() => directory.remove());

test("keygen writes an Ed25519 pair, the private key readable by its owner only, and prints both paths and the kid", async () => {
  const run = await runCli(["keygen"], "", { cwd: directory.path });
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  const privateFile = join(directory.path, "rule-server-signing.pem");
  const publicFile = join(directory.path, "rule-server-signing.pub.pem");
  expect(statSync(privateFile).mode & 0o777).toBe(0o600);
  const signingKey = await readSigningKey(readFileSync(privateFile, "utf8"), "rule-server-signing.pem");
  expect(signingKey.algorithm).toBe("EdDSA");
  expect((await TrustedKeys.read(publicFile)).kids).toEqual([signingKey.kid]);
  expect(run.stdout).toBe(
    "private key: rule-server-signing.pem (keep it secret; sign with it)\n" +
      "public key:  rule-server-signing.pub.pem (trust it: RULE_SERVER_TRUSTED_KEYS)\n" +
      `kid:         ${signingKey.kid} (EdDSA)\n`,
  );
});

test("keygen --algorithm ES256 --out NAME writes a P-256 pair under that name", async () => {
  const run = await runCli(["keygen", "--algorithm", "ES256", "--out", "release"], "", { cwd: directory.path });
  expect(run.status).toBe(0);
  const signingKey = await readSigningKey(readFileSync(join(directory.path, "release.pem"), "utf8"), "release.pem");
  expect(signingKey.algorithm).toBe("ES256");
  expect(run.stdout).toContain("release.pub.pem");
  expect(run.stdout).toContain(`kid:         ${signingKey.kid} (ES256)`);
});

test("keygen overwrites no file: an existing private or public key file stops it with exit 1", async () => {
  writeFileSync(join(directory.path, "release.pub.pem"), "kept");
  const run = await runCli(["keygen", "--out", "release"], "", { cwd: directory.path });
  expect(run).toEqual({
    status: 1,
    stdout: "",
    stderr: "rule-server keygen: release.pub.pem already exists: not overwritten\n",
  });
  expect(readFileSync(join(directory.path, "release.pub.pem"), "utf8")).toBe("kept");
  expect(() => statSync(join(directory.path, "release.pem"))).toThrow();
  const first = await runCli(["keygen"], "", { cwd: directory.path });
  const privateKey = readFileSync(join(directory.path, "rule-server-signing.pem"), "utf8");
  const again = await runCli(["keygen"], "", { cwd: directory.path });
  expect([first.status, again.status]).toEqual([0, 1]);
  expect(again.stderr).toContain("rule-server-signing.pem and rule-server-signing.pub.pem already exist");
  expect(readFileSync(join(directory.path, "rule-server-signing.pem"), "utf8")).toBe(privateKey);
});

test("keygen with another algorithm or an argument is a usage error", async () => {
  for (const args of [
    ["keygen", "--algorithm", "RS256"],
    ["keygen", "name"],
    ["keygen", "--out"],
  ]) {
    const run = await runCli(args, "", { cwd: directory.path });
    expect(run.status).toBe(2);
  }
  expect((await runCli(["keygen", "--algorithm", "HS256"])).stderr).toStartWith(
    "rule-server: keygen: --algorithm is EdDSA or ES256, not HS256",
  );
});

test("keygen into a directory that does not exist exits 1 with a message", async () => {
  const run = await runCli(["keygen", "--out", "missing/key"], "", { cwd: directory.path });
  expect(run).toEqual({
    status: 1,
    stdout: "",
    stderr: "rule-server keygen: cannot write the key pair missing/key (ENOENT)\n",
  });
});

test("keygen --help prints its usage", async () => {
  const run = await runCli(["keygen", "--help"]);
  expect(run.status).toBe(0);
  expect(run.stdout).toStartWith("Usage:\n  rule-server keygen [--algorithm EdDSA|ES256] [--out NAME]");
});
