import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import packageJson from "../../package.json" with { type: "json" };
import { IMAGE, imageRunConfig } from "../../src/packaging/rule-server-image.ts";
import { PROJECT_ROOT } from "../support/run-cli.ts";

/** deploy/container/Dockerfile builds the image `make image` writes: the same user, environment, port, stop signal, entry point and labels. */
const dockerfile = readFileSync(join(PROJECT_ROOT, "deploy", "container", "Dockerfile"), "utf8").replace(
  /\\\n\s*/g,
  " ",
);
const finalStage = dockerfile.slice(dockerfile.lastIndexOf("\nFROM "));
const instruction = (name: string): string => new RegExp(`^${name} (.*)$`, "m").exec(finalStage)![1]!.trim();
const expected = imageRunConfig({
  version: packageJson.version,
  description: packageJson.description,
  license: packageJson.license,
  revision: "r",
  sourceDate: 0,
});

test("the final stage starts from nothing", () => {
  expect(finalStage).toStartWith("\nFROM scratch\n");
});

test("user, environment, port, stop signal and entry point are the image's", () => {
  expect(instruction("USER")).toBe(expected.User);
  expect(instruction("ENV").split(" ").sort()).toEqual([...expected.Env].sort());
  expect(instruction("EXPOSE")).toBe(Object.keys(expected.ExposedPorts)[0]!);
  expect(instruction("STOPSIGNAL")).toBe(expected.StopSignal);
  expect(JSON.parse(instruction("ENTRYPOINT"))).toEqual(expected.Entrypoint);
  expect(instruction("WORKDIR")).toBe(expected.WorkingDir);
});

test("the same labels, the version defaulting to package.json's", () => {
  const labels = [...instruction("LABEL").matchAll(/(\S+)="([^"]*)"/g)].map((match) => match[1]);
  expect(labels.sort()).toEqual(Object.keys(expected.Labels).sort());
  expect(/^ARG VERSION=(.*)$/m.exec(finalStage)![1]).toBe(packageJson.version);
  expect(finalStage).toContain(`org.opencontainers.image.licenses="${packageJson.license}"`);
  expect(finalStage).toContain(`org.opencontainers.image.description="${packageJson.description}"`);
});

test("the root file system gets the same user and group, and the libraries ldd lists", () => {
  expect(dockerfile).toContain(`nonroot:x:${IMAGE.uid}:${IMAGE.gid}:nonroot:/home/nonroot:/sbin/nologin`);
  expect(dockerfile).toContain(`nonroot:x:${IMAGE.gid}:`);
  expect(dockerfile).toContain(`COPY \${EXECUTABLE} /rootfs${IMAGE.executable}`);
  expect(dockerfile).toMatch(/ldd \/rootfs\/usr\/local\/bin\/rule-server/);
  expect(dockerfile).toContain(`/rootfs${IMAGE.rulesDir}`);
});
