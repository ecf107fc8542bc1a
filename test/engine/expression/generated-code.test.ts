import { expect, test } from "bun:test";
import { PROJECT_ROOT } from "../../support/run-cli.ts";

/**
 * A platform that refuses generated code (generated-code.ts): the engine evaluates with its
 * closures and gives the same values. In a process of its own, as the refusal is remembered.
 */
test("a platform that refuses to compile code gets the same values from closures", async () => {
  const env = { data: { order: { lines: [{ qty: 2 }, { qty: 5 }], name: "n" } } };
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
      evaluateExpression({ op: "and", args: [{ op: "exists", args: [{ var: "data.order.name" }] }, { op: "lt", args: [{ var: "data.order.lines.0.qty" }, 3] }] }, env),
    ]));`;
  const child = Bun.spawn([process.execPath, "-e", script], { cwd: PROJECT_ROOT, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, status] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  expect(stderr).toBe("");
  expect(status).toBe(0);
  expect(JSON.parse(stdout)).toEqual([true, 5, env.data.order.lines, null, true]);
});
