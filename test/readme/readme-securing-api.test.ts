import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fencedBlocks } from "../support/markdown-blocks.ts";
import { rulesDirectory } from "../support/rules-directory.ts";
import { PROJECT_ROOT } from "../support/run-cli.ts";
import { serverEnvironment, startServer, TOKEN } from "../support/server-process.ts";

/**
 * README, "Securing the API": the openssl commands make a CA and certificates a server starts
 * with, and the credentials file of the example loads (its `…` filled in) with the scopes it says.
 */
const README = readFileSync(join(PROJECT_ROOT, "README.md"), "utf8");
const scratch = mkdtempSync(join(tmpdir(), "rule-server-readme-tls-"));
const rules = rulesDirectory();
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  rules.remove();
});

test("the README's test CA serves HTTPS to its client certificate, and curl as the README writes it", async () => {
  const commands = fencedBlocks(README).find((block) => block.words.includes("tls-test-ca"));
  expect(commands).toBeDefined();
  const made = Bun.spawnSync(["sh", "-e", "-c", commands!.text], { cwd: scratch, stderr: "pipe" });
  expect(made.exitCode, made.stderr.toString()).toBe(0);
  const server = await startServer(
    serverEnvironment(rules.path, {
      RULE_SERVER_TLS_CERT: join(scratch, "server.crt"),
      RULE_SERVER_TLS_KEY: join(scratch, "server.key"),
      RULE_SERVER_TLS_CLIENT_CA: join(scratch, "ca.crt"),
    }),
  );
  try {
    const curl = (...identity: string[]) =>
      Bun.spawnSync(
        [
          "curl",
          "-sS",
          "--cacert",
          "ca.crt",
          ...identity,
          "-H",
          `Authorization: Bearer ${TOKEN}`,
          `https://localhost:${server.port}/rulesets/shop.orders.order/manifest?channel=server`,
        ],
        { cwd: scratch, stdout: "pipe", stderr: "pipe" },
      );
    const answered = curl("--cert", "client.crt", "--key", "client.key");
    expect(answered.exitCode, answered.stderr.toString()).toBe(0);
    expect(JSON.parse(answered.stdout.toString()).rules.length).toBeGreaterThan(0);
    expect(curl().exitCode).not.toBe(0);
  } finally {
    await server.kill();
  }
});

test("the README's credentials file, its elisions filled in, gives each caller the scopes it lists", async () => {
  const example = fencedBlocks(README).find(
    (block) => block.language === "yaml" && block.text.startsWith("credentials:"),
  );
  expect(example).toBeDefined();
  const prometheusToken = "prometheus-token-0123456789";
  const digest = new Bun.CryptoHasher("sha256").update(prometheusToken).digest("hex");
  const file = join(scratch, "credentials.yaml");
  writeFileSync(
    file,
    example!.text
      .replace("token: 3f0c…", "token: checkout-token-0123456789")
      .replace("sha256: 4a3f…", `sha256: ${digest}`),
  );
  const server = await startServer(
    serverEnvironment(rules.path, { RULE_SERVER_TOKEN: undefined, RULE_SERVER_CREDENTIALS: file }),
  );
  try {
    const get = (path: string, token: string) =>
      fetch(`${server.url}${path}`, { headers: { Authorization: `Bearer ${token}` } });
    expect((await get("/metrics", prometheusToken)).status).toBe(200);
    expect((await get("/metrics", "checkout-token-0123456789")).status).toBe(200);
    expect((await get("/rulesets/shop.orders.order/bundle", "checkout-token-0123456789")).status).toBe(403);
  } finally {
    await server.kill();
  }
});
