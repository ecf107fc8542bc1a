import { afterAll, beforeAll, expect, test } from "bun:test";
import { copyFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { releaseBuild } from "../support/build-release.ts";
import { currencyRuleset } from "../support/currency-ruleset.ts";
import { logWatcher } from "../support/log-watcher.ts";
import { PROJECT_ROOT } from "../support/run-cli.ts";
import { readinessOfEach } from "../support/server-processes.ts";

/**
 * The release executable used the way a user gets it: the test run's rule-server-linux-x64 copied
 * into an empty directory and run with no Bun, no sources and no node_modules (hidden by a mount
 * namespace where the platform allows one). It serves with workers, matches with RE2 (loaded from
 * the executable when a pattern outside the linear subset first needs it), reloads on
 * SIGHUP, drains on SIGTERM, serves the explorer page, runs check and compile, and starts itself
 * again as the serving processes of RULE_SERVER_PROCESSES.
 */
const TOKEN = "binary-test-token";

let home: string;
let executable: string;
/** Runs a command line with the project's node_modules hidden, when `unshare` can do that here. */
let hideNodeModules: (command: string) => string[];

beforeAll(async () => {
  const built = releaseBuild("linux-x64");
  home = mkdtempSync(join(tmpdir(), "rule-server-release-"));
  executable = join(home, "rule-server");
  copyFileSync(join(built, "rule-server-linux-x64"), executable);
  cpSync(join(PROJECT_ROOT, "rules"), join(home, "rules"), { recursive: true });
  const modules = join(PROJECT_ROOT, "node_modules");
  const probe = Bun.spawnSync([
    "unshare",
    "--mount",
    "sh",
    "-c",
    `mount -t tmpfs none '${modules}' && test -z "$(ls '${modules}')"`,
  ]);
  hideNodeModules =
    probe.exitCode === 0
      ? (command) => ["unshare", "--mount", "sh", "-c", `mount -t tmpfs none '${modules}' && exec ${command}`]
      : (command) => ["sh", "-c", `exec ${command}`];
}, 180000);
afterAll(() => rmSync(home, { recursive: true, force: true }));

test("version names the embedded version, from an empty directory", () => {
  const run = Bun.spawnSync(hideNodeModules(`'${executable}' version`), { cwd: home, env: { PATH: "/usr/bin:/bin" } });
  const version = JSON.parse(readFileSync(join(PROJECT_ROOT, "package.json"), "utf8")).version;
  expect(run.stdout.toString()).toBe(`rule-server ${version}\nspecification 1.0.0\nbundle format 1.0.0\n`);
});

test("check and compile work from the executable", () => {
  const check = Bun.spawnSync(hideNodeModules(`'${executable}' check rules`), {
    cwd: home,
    env: { PATH: "/usr/bin:/bin" },
  });
  expect(check.stdout.toString()).toContain("OK: 3 file(s), 0 problem(s)");
  expect(check.exitCode).toBe(0);
  const compile = Bun.spawnSync(
    hideNodeModules(`'${executable}' compile rules/acme-payments.ruleset.yaml -o payments.bundle.json`),
    { cwd: home, env: { PATH: "/usr/bin:/bin" } },
  );
  expect(compile.exitCode).toBe(0);
  expect(JSON.parse(readFileSync(join(home, "payments.bundle.json"), "utf8")).id).toBe("acme.payments");
});

test("serves with two workers, evaluates rules that use matches, reloads on SIGHUP and drains on SIGTERM", async () => {
  writeFileSync(
    join(home, "rules", "release-currency.ruleset.yaml"),
    currencyRuleset("release.currency", "Transfer", "./payments.openapi.yaml#/components/schemas/Transfer"),
  );
  const child = Bun.spawn(hideNodeModules(`'${executable}'`), {
    cwd: home,
    env: {
      PATH: "/usr/bin:/bin",
      RULES_DIR: "rules",
      PORT: "0",
      RULE_SERVER_TOKEN: TOKEN,
      RULE_SERVER_WORKERS: "2",
      DRAIN_SECONDS: "1",
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  const output = logWatcher(child.stdout as ReadableStream<Uint8Array>, 15000);
  const waitFor = output.waitFor;
  try {
    await waitFor(/"msg":"listening"/);
    expect(output.log()).toContain('"workers":2');
    const url = `http://127.0.0.1:${/"port":(\d+)/.exec(output.log())![1]}`;
    // The explorer page is embedded: served with no sources and no node_modules to bundle it from.
    for (const [path, type] of [
      ["/explorer/", "text/html"],
      ["/explorer/explorer.js", "text/javascript"],
      ["/explorer/rule-cascade.js", "text/javascript"],
    ] as const) {
      const page = await fetch(`${url}${path}`);
      expect(page.status, path).toBe(200);
      expect(page.headers.get("content-type"), path).toStartWith(type);
      expect((await page.text()).length, path).toBeGreaterThan(500);
    }
    const transfer = (iban: string): Promise<Response> =>
      fetch(`${url}/evaluations`, {
        method: "POST",
        headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" },
        body: JSON.stringify({
          ruleset: "acme.payments",
          entity: "Transfer",
          operation: "create",
          data: {
            id: "TRF-1",
            amount: 100,
            currency: "EUR",
            reference: "Invoice 1",
            debtor: { iban: "DE89370400440532013000", country: "DE" },
            beneficiary: { iban, country: "AT" },
          },
          ctx: { now: "2026-03-02T09:30:00Z" },
        }),
      });
    const good = (await (await transfer("AT611904300234573201")).json()) as {
      findings: { code: string; detail?: string }[];
    };
    const bad = (await (await transfer("not-an-iban")).json()) as { findings: { code: string; detail?: string }[] };
    expect(good.findings.filter((finding) => finding.code === "RULE-EVALUATION-ERROR")).toEqual([]);
    // The IBAN pattern (matches, in the linear subset: the JavaScript engine) refuses the malformed one.
    expect(bad.findings.length).toBeGreaterThan(good.findings.length);
    expect(bad.findings.filter((finding) => finding.code === "RULE-EVALUATION-ERROR")).toEqual([]);
    // The currency pattern needs RE2, which each worker loads from the executable when it receives the rules.
    for (const [currency, codes] of [
      ["USD", []],
      ["CHF", ["CUR-001"]],
      ["EUR", []],
      ["EURO", ["CUR-001"]],
    ] as const) {
      const answer = await fetch(`${url}/evaluations`, {
        method: "POST",
        headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" },
        body: JSON.stringify({
          ruleset: "release.currency",
          entity: "Transfer",
          operation: "create",
          data: { currency },
        }),
      });
      const result = (await answer.json()) as { findings: { code: string; detail?: string }[] };
      expect(
        result.findings.map((finding) => finding.detail ?? finding.code),
        currency,
      ).toEqual([...codes]);
    }
    // The OpenAPI description is embedded: the executable runs far from the repository.
    const described = (await (await fetch(`${url}/openapi.json`)).json()) as {
      openapi: string;
      paths: Record<string, unknown>;
    };
    expect(described).toEqual(parseYaml(readFileSync(join(import.meta.dir, "..", "..", "openapi.yaml"), "utf8")));

    writeFileSync(join(home, "rules", "cache-policy.yaml"), "default: { mode: ttl, maxAge: 60 }\n");
    child.kill("SIGHUP");
    await waitFor(/"msg":"rules reloaded","trigger":"SIGHUP"/);
    expect((await fetch(`${url}/rulesets/acme.payments/manifest`)).headers.get("cache-control")).toBe(
      "public, max-age=60",
    );

    child.kill("SIGTERM");
    await waitFor(/"msg":"draining"/);
    expect((await fetch(`${url}/readyz`)).status).toBe(503);
    expect(await child.exited).toBe(0);
  } finally {
    if (child.exitCode === null) child.kill("SIGKILL");
  }
}, 60000);

test("serves from two processes, each the executable started again, reloading both on SIGHUP", async () => {
  const child = Bun.spawn(hideNodeModules(`'${executable}'`), {
    cwd: home,
    env: {
      PATH: "/usr/bin:/bin",
      RULES_DIR: "rules",
      PORT: "0",
      RULE_SERVER_TOKEN: TOKEN,
      RULE_SERVER_PROCESSES: "2",
      RULE_SERVER_WORKERS: "1",
      DRAIN_SECONDS: "1",
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  const output = logWatcher(child.stdout as ReadableStream<Uint8Array>, 15000);
  try {
    await output.waitFor(/"msg":"listening"[^\n]*"processes":2/);
    const port = Number(/"msg":"listening".*"port":(\d+)/.exec(output.log())![1]);
    const answered = await readinessOfEach(port, [1, 2]);
    expect(answered.size).toBe(2);
    expect(answered.has(child.pid)).toBe(false);
    child.kill("SIGHUP");
    await output.waitFor(/"msg":"rules reloaded","trigger":"SIGHUP"/);
    const reloads = [...(await readinessOfEach(port, [1, 2])).values()].map(
      (answer) => answer.lastReload?.outcome === "reloaded" && answer.lastReload.at,
    );
    expect(reloads.length).toBe(2);
    expect(reloads[0]).toBeString();
    expect(reloads[1]).toBe(reloads[0]!);
    child.kill("SIGTERM");
    expect(await child.exited).toBe(0);
  } finally {
    if (child.exitCode === null) child.kill("SIGKILL");
  }
}, 60000);
