import { evaluateExpression } from "../../src/engine/expression/evaluate-expression.ts";
import type { ExplainedNode, Explanation, RuleExplanation } from "../../src/engine/explanation/explanation.ts";
import type { Effect } from "../../src/engine/evaluation/evaluation-result.ts";
import type { CustomOperator } from "../../src/engine/expression/custom-operators.ts";
import type { JsonObject, JsonValue } from "../../src/engine/value/json-value.ts";

/**
 * Checks a full explanation against the engine itself: every node with a value, evaluated alone
 * (as the `expression` command would, with the request's roots, the data as the rule saw it, and
 * the manifest's params and functions) gives that value; a node with an error raises one; every
 * deciding leaf has the value it is claimed to have (false, or true under an odd number of `not`).
 * Returns what disagrees, as readable lines; nothing when all agree.
 */
export interface ConsistencyInput {
  readonly explanation: Explanation;
  readonly manifest: JsonObject;
  readonly request: JsonObject;
  readonly effects: readonly Effect[];
  readonly operators: Readonly<Record<string, CustomOperator>>;
}

type Roots = Partial<Record<"data" | "original" | "actor" | "ctx" | "params" | "item" | "value" | "field", JsonValue>>;

export function inconsistentNodes(input: ConsistencyInput): string[] {
  const problems: string[] = [];
  const rules = (input.manifest.rules as JsonObject[]) ?? [];
  const finalData = withEffects(input.request.data ?? {}, input.effects);
  for (const entry of input.explanation.rules) {
    const source = rules.find((rule) => rule.id === entry.rule);
    // A compute rule saw the data as the compute rules before it left it: only its first assignment and `when` are checked.
    const data = entry.kind === "compute" ? dataBefore(input, entry) : finalData;
    if (data === undefined) continue;
    const roots: Roots = {
      data,
      original: input.request.original ?? null,
      actor: input.request.actor ?? {},
      ctx: input.request.ctx ?? {},
      params: input.manifest.params ?? {},
    };
    if (entry.field !== undefined) {
      const at = read(finalData, entry.field);
      if (typeof source?.forEach === "string") roots.item = at;
      else Object.assign(roots, { value: at, field: entry.field });
    }
    const check = (node: ExplainedNode | undefined, pointer: string): void => {
      if (node !== undefined) checkNode(node, `${entry.rule}${pointer}`, roots, input, problems);
    };
    check(entry.when, "/when");
    check(entry.assert, "/assert");
    if (entry.kind === "compute") check(entry.assign?.[0], "/assign/0");
    else entry.assign?.forEach((node, index) => check(node, `/assign/${index}`));
    for (const [name, node] of Object.entries(entry.args ?? {})) check(node, `/args/${name}`);
    if (Array.isArray(entry.because)) for (const pointer of entry.because) checkLeaf(entry, pointer, problems);
  }
  return problems;
}

function checkNode(node: ExplainedNode, at: string, roots: Roots, input: ConsistencyInput, problems: string[]): void {
  if (node.skipped || node.truncated) return;
  let alone: { value: JsonValue } | { error: string };
  try {
    alone = {
      value: evaluateExpression(node.expr, roots, { functions: input.manifest.functions, operators: input.operators }),
    };
  } catch (error) {
    alone = { error: (error as Error).message };
  }
  const shown = node.error !== undefined ? { error: node.error } : { value: node.value ?? null };
  if (JSON.stringify(alone) !== JSON.stringify(shown))
    problems.push(`${at}: explained ${JSON.stringify(shown)}, alone ${JSON.stringify(alone)}`);
  node.args?.forEach((arg, index) => {
    // A collection's body is shown for one item: evaluated alone, it sees that item.
    const list = node.args?.[0]?.value;
    if (node.item !== undefined && index === 1) {
      if (!Array.isArray(list) || node.args?.[0]?.truncated) return;
      checkNode(arg, `${at}/args/${index}`, { ...roots, item: list[node.item] ?? null }, input, problems);
    } else checkNode(arg, `${at}/args/${index}`, roots, input, problems);
  });
}

/** A deciding leaf of a false `when` or a failed `assert` is false, or true under an odd number of `not`. */
function checkLeaf(entry: RuleExplanation, pointer: string, problems: string[]): void {
  const parts = pointer.split("/").slice(1);
  let node: ExplainedNode | undefined = (entry as unknown as Record<string, ExplainedNode>)[parts[0]!];
  let expected = false;
  for (let i = 1; i < parts.length && node !== undefined; i += 2) {
    if ((node.expr as JsonObject | null)?.op === "not") expected = !expected;
    node = node.args?.[Number(parts[i + 1])];
  }
  if (node?.value !== expected)
    problems.push(
      `${entry.rule}${pointer}: a deciding leaf of value ${JSON.stringify(node?.value)}, expected ${expected}`,
    );
}

function dataBefore(input: ConsistencyInput, entry: RuleExplanation): JsonValue | undefined {
  const first = input.effects.findIndex((effect) => effect.rule === entry.rule);
  if (first === -1) return undefined;
  return withEffects(input.request.data ?? {}, input.effects.slice(0, first));
}

function withEffects(data: JsonValue, effects: readonly Effect[]): JsonValue {
  const copy = structuredClone(data) as JsonObject;
  for (const effect of effects) {
    if (effect.type !== "value") continue;
    const keys = effect.field
      .split("/")
      .slice(1)
      .map((key) => key.replaceAll("~1", "/").replaceAll("~0", "~"));
    let at: JsonObject = copy;
    // Written as own data members, so that a member named __proto__ is one.
    const put = (target: JsonObject, key: string, value: JsonValue): void =>
      void Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
    for (const key of keys.slice(0, -1)) {
      if (!(typeof at[key] === "object" && at[key] !== null && Object.hasOwn(at, key))) put(at, key, {});
      at = at[key] as JsonObject;
    }
    put(at, keys.at(-1)!, effect.value);
  }
  return copy;
}

function read(data: JsonValue, pointer: string): JsonValue {
  let at: JsonValue | undefined = data;
  for (const key of pointer
    .split("/")
    .slice(1)
    .map((part) => part.replaceAll("~1", "/").replaceAll("~0", "~"))) {
    at = typeof at === "object" && at !== null ? (at as Record<string, JsonValue>)[key] : undefined;
  }
  return at ?? null;
}
