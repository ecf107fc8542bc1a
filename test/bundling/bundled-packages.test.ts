import { expect, test } from "bun:test";
import { bundledPackages } from "../../src/bundling/bundled-packages.ts";

/** Which of a bundler's inputs are npm packages, whose notices ship with the bundle. */
test("the packages among a bundler's inputs, scoped or not, once each and sorted", () => {
  const inputs = [
    "node_modules/vscode-jsonrpc/lib/main.js",
    "node_modules/@scope/pkg/index.js",
    "src/extension.ts",
    "node_modules/vscode-jsonrpc/lib/common/api.js",
    "node_modules/a/node_modules/b/x.js",
  ];
  expect(bundledPackages(inputs, "/repo")).toEqual([
    "/repo/node_modules/@scope/pkg",
    "/repo/node_modules/a/node_modules/b",
    "/repo/node_modules/vscode-jsonrpc",
  ]);
});
