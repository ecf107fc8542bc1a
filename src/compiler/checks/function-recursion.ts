import { objectAt } from "../../engine/value/json-access.ts";
import type { JsonObject } from "../../engine/value/json-value.ts";
import { reachableNames } from "../expressions/expression-walk.ts";

/** Whether a function reaches itself through the functions it calls. */
export function callsItself(name: string, functions: JsonObject): boolean {
  const explored = new Set<string>([name]);
  const pending = [name];
  while (pending.length > 0) {
    const current = pending.pop()!;
    const callees = reachableNames([objectAt(functions[current]).body ?? null], {}).functions;
    for (const callee of callees) {
      if (callee === name) return true;
      if (Object.hasOwn(functions, callee) && !explored.has(callee)) {
        explored.add(callee);
        pending.push(callee);
      }
    }
  }
  return false;
}
