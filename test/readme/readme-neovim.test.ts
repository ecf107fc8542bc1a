import { afterAll, expect, test } from "bun:test";
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fencedBlocks } from "../support/markdown-blocks.ts";
import { MAIN, PROJECT_ROOT } from "../support/run-cli.ts";
import { temporaryDirectory } from "../support/temp-directory.ts";

/**
 * The README's Neovim configuration for Neovim without `vim.lsp.config` (Debian 12 ships 0.7.2),
 * run as written in Debian's Neovim (the Makefile installs it when missing): opening a ruleset in
 * a git repository starts `rule-server lsp` rooted there, its problems arrive as diagnostics, and a
 * second ruleset of the repository attaches to the same server.
 */
const NVIM = process.env.NVIM_BINARY ?? "/usr/bin/nvim";
const README = readFileSync(join(PROJECT_ROOT, "README.md"), "utf8");
const scratch = temporaryDirectory({});
afterAll(() => scratch.remove());

/** What the probe reports, once the server's diagnostics of the broken ruleset arrived (or 20 s passed). */
const PROBE = `
vim.wait(20000, function() return #vim.diagnostic.get(0) > 0 end, 100)
local report = { clients = {}, diagnostics = {} }
for _, client in pairs(vim.lsp.buf_get_clients(0)) do table.insert(report.clients, { name = client.name, root = client.config.root_dir, id = client.id }) end
for _, diagnostic in ipairs(vim.diagnostic.get(0)) do table.insert(report.diagnostics, diagnostic.message) end
vim.cmd("edit " .. vim.fn.fnameescape(vim.fn.getcwd() .. "/acme-payments.ruleset.yaml"))
vim.wait(5000, function() return #vim.lsp.buf_get_clients(0) > 0 end, 100)
report.second = {}
for _, client in pairs(vim.lsp.buf_get_clients(0)) do table.insert(report.second, client.id) end
report.running = #vim.lsp.get_active_clients()
vim.fn.writefile({ vim.fn.json_encode(report) }, vim.env.PROBE_REPORT)
vim.cmd("qa!")
`;

test("the start_client form attaches rule-server lsp to a ruleset, rooted at the git repository", async () => {
  if (!existsSync(NVIM))
    throw new Error(`Neovim is not installed at ${NVIM}: run make test, which installs Debian's neovim package`);
  const block = fencedBlocks(README).find(
    (candidate) => candidate.language === "lua" && candidate.text.includes("vim.lsp.start_client"),
  );
  expect(block).toBeDefined();
  const repository = join(scratch.path, "rules-repository");
  cpSync(join(PROJECT_ROOT, "rules"), repository, { recursive: true });
  writeFileSync(join(repository, "broken.ruleset.yaml"), "metadata: [\n");
  mkdirSync(join(repository, ".git"));
  // `rule-server` as the README's configuration names it: this checkout's.
  const bin = join(scratch.path, "bin");
  mkdirSync(bin);
  writeFileSync(join(bin, "rule-server"), `#!/bin/sh\nexec "${process.execPath}" "${MAIN}" "$@"\n`);
  chmodSync(join(bin, "rule-server"), 0o755);
  writeFileSync(join(scratch.path, "init.lua"), block!.text);
  writeFileSync(join(scratch.path, "probe.lua"), PROBE);
  const report = join(scratch.path, "report.json");
  const nvim = Bun.spawn(
    [
      NVIM,
      "--headless",
      "-u",
      join(scratch.path, "init.lua"),
      "broken.ruleset.yaml",
      "-c",
      `luafile ${join(scratch.path, "probe.lua")}`,
    ],
    {
      cwd: repository,
      env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, PROBE_REPORT: report },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    },
  );
  const status = await Promise.race([nvim.exited, Bun.sleep(45_000).then(() => "timeout" as const)]);
  if (status === "timeout") nvim.kill();
  expect(existsSync(report), `Neovim wrote no report: ${await new Response(nvim.stderr).text()}`).toBe(true);
  const probed = JSON.parse(readFileSync(report, "utf8")) as {
    clients: { name: string; root: string; id: number }[];
    diagnostics: string[];
    second: number[];
    running: number;
  };
  expect(probed.clients).toEqual([{ name: "rule_server", root: repository, id: probed.clients[0]!.id }]);
  expect(probed.diagnostics.length).toBeGreaterThan(0);
  expect(probed.second).toEqual([probed.clients[0]!.id]);
  expect(probed.running).toBe(1);
}, 60_000);
