import { describe, expect, test } from "bun:test";
import { listenHost } from "../../../src/server/config/listen-host.ts";
import { rulesDirectory } from "../../support/rules-directory.ts";
import { serverEnvironment, startExpectingFailure, startServer } from "../../support/server-process.ts";

/** HOST: the listen address. Linux answers every 127.x.x.x on loopback, so 127.0.0.2 tells the difference. */
const reachable = async (url: string): Promise<boolean> =>
  fetch(url).then(
    () => true,
    () => false,
  );

describe("HOST", () => {
  test("HOST=127.0.0.1 listens there only; without HOST every interface is served", async () => {
    const rules = rulesDirectory();
    const [bound, everywhere] = await Promise.all([
      startServer(serverEnvironment(rules.path, { HOST: "127.0.0.1" })),
      startServer(serverEnvironment(rules.path, { HOST: undefined })),
    ]);
    try {
      expect(bound.logs().find((line) => line.msg === "listening")!.host).toBe("127.0.0.1");
      expect(await reachable(`http://127.0.0.1:${bound.port}/healthz`)).toBe(true);
      expect(await reachable(`http://127.0.0.2:${bound.port}/healthz`)).toBe(false);
      expect(await reachable(`http://127.0.0.2:${everywhere.port}/healthz`)).toBe(true);
      expect(everywhere.logs().find((line) => line.msg === "listening")!.host).toBe("*");
    } finally {
      await Promise.all([bound.kill(), everywhere.kill()]);
      rules.remove();
    }
  });

  test("an invalid HOST stops the process with a fatal line naming HOST", async () => {
    const rules = rulesDirectory();
    try {
      const { status, logs } = await startExpectingFailure(serverEnvironment(rules.path, { HOST: "not a host!" }));
      expect(status).toBe(1);
      const fatal = logs.find((line) => line.level === "fatal")!;
      expect(JSON.stringify(fatal.problems)).toContain("HOST");
    } finally {
      rules.remove();
    }
  });

  test("addresses and host names are accepted, anything else is not", () => {
    for (const good of ["127.0.0.1", "0.0.0.0", "::", "::1", "localhost", "rule-server.internal"])
      expect(listenHost(good), good).toBe(good);
    expect(listenHost("[::1]")).toBe("::1");
    for (const bad of ["", "not a host!", "256.1.1.1", "-leading", "a..b", "[localhost]", "http://x"])
      expect(listenHost(bad), bad).toBeUndefined();
  });
});
