import { afterEach, expect, test } from "bun:test";
import { evaluateExpression } from "../../../src/engine/expression/evaluate-expression.ts";
import { PROJECT_ROOT } from "../../support/run-cli.ts";

/**
 * Variable reads compiled to JavaScript (generated-path-reader.ts): what they read is pinned by
 * the golden corpora, which run every case both ways; these pin when code is generated at all.
 */
const OriginalFunction = globalThis.Function;
let compiled = 0;

/** Counts the functions the engine compiles while `run` runs. */
function countingCompiles(run: () => void): number {
  compiled = 0;
  // A constructor that returns an object makes `new` give that object.
  globalThis.Function = function countedFunction(...args: string[]) {
    compiled++;
    return new OriginalFunction(...args);
  } as FunctionConstructor;
  try {
    run();
  } finally {
    globalThis.Function = OriginalFunction;
  }
  return compiled;
}

afterEach(() => {
  globalThis.Function = OriginalFunction;
});

const env = { data: { order: { lines: [{ qty: 2 }, { qty: 5 }] } } };

test("a path is compiled once, however many expressions read it", () => {
  const expression = { op: "add", args: [{ var: "data.order.lines.1.qty" }, { var: "data.order.lines.1.qty" }] };
  expect(countingCompiles(() => expect(evaluateExpression(expression, env)).toBe(10))).toBe(1);
  expect(countingCompiles(() => expect(evaluateExpression(expression, env)).toBe(10))).toBe(0);
});

test("a root read alone, or a root that does not exist, compiles nothing", () => {
  expect(countingCompiles(() => expect(evaluateExpression({ var: "data" }, env)).toEqual(env.data))).toBe(0);
  expect(countingCompiles(() => expect(evaluateExpression({ var: "nowhere.order" }, env)).toBeNull())).toBe(0);
});

test("with code generation off, nothing is compiled and the reads are the same", () => {
  const expression = { var: "data.order.lines.0.qty" };
  expect(countingCompiles(() => expect(evaluateExpression(expression, env, { codeGeneration: false })).toBe(2))).toBe(0);
  expect(countingCompiles(() => expect(evaluateExpression(expression, env)).toBe(2))).toBe(1);
});

test("a platform that refuses to compile code gets the same reads from closures", async () => {
  // In a process of its own: the engine remembers a refusal for as long as it runs.
  const script = `
    globalThis.Function = function () { throw new EvalError("code generation refused"); };
    const { evaluateExpression } = await import("./src/engine/expression/evaluate-expression.ts");
    const env = ${JSON.stringify(env)};
    const refused = (() => { try { new Function("return 1"); return false; } catch { return true; } })();
    console.log(JSON.stringify([
      refused,
      evaluateExpression({ var: "data.order.lines.1.qty" }, env),
      evaluateExpression({ var: "data.order.lines" }, env),
      evaluateExpression({ var: "data.order.__proto__" }, env),
    ]));`;
  const child = Bun.spawn([process.execPath, "-e", script], { cwd: PROJECT_ROOT, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, status] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  expect(stderr).toBe("");
  expect(status).toBe(0);
  expect(JSON.parse(stdout)).toEqual([true, 5, env.data.order.lines, null]);
});
