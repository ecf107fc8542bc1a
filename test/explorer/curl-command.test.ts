import { expect, test } from "bun:test";
import { curlCommand } from "../../src/explorer/curl-command.ts";

test("the curl command sends the body as it is, quoted for a POSIX shell, with the token from $TOKEN", () => {
  const request = {
    ruleset: "acme.payments",
    entity: "Transfer",
    operation: "create",
    data: { reference: "Joe's invoice $HOME `id`" },
  };
  const command = curlCommand("http://localhost:8080/evaluations", request);
  expect(command).toContain(`-H "Authorization: Bearer $TOKEN"`);
  // Run by a real shell, the body reaches curl unchanged: nothing expanded, the quote kept.
  const echoed = Bun.spawnSync([
    "sh",
    "-c",
    `curl() { for word in "$@"; do printf '%s\\n' "$word"; done; }; TOKEN=secret; ${command}`,
  ]);
  const words = echoed.stdout.toString().trimEnd().split("\n");
  expect(words).toEqual([
    "-sS",
    "-X",
    "POST",
    "http://localhost:8080/evaluations",
    "-H",
    "Authorization: Bearer secret",
    "-H",
    "Content-Type: application/json",
    "--data-binary",
    JSON.stringify(request),
  ]);
});
