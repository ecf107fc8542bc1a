import type { NodeTracer } from "../expression/node-tracer.ts";
import type { Node } from "../expression/prepared-node.ts";
import { emptyTally, type NodeTally } from "./node-tally.ts";

/**
 * Counts, for every node of the rules' expressions, the tests in which it was evaluated and in
 * which it gave true or false (`rule-server test --coverage`). Nodes are told apart by the
 * identity of their expression in the manifest, which the coverage report walks again to find
 * each node's place in the source. `test` is set before each test's evaluation.
 */
export class BranchTrace implements NodeTracer {
  test = 0;
  private readonly tallies = new Map<object, NodeTally>();

  node(inner: Node, expression: unknown, _index: number): Node {
    // A literal's value is itself: only calls, references and lists are counted.
    if (typeof expression !== "object" || expression === null) return inner;
    let tally = this.tallies.get(expression);
    if (tally === undefined) this.tallies.set(expression, (tally = emptyTally()));
    const counted = tally;
    return (scope, base) => {
      const test = this.test;
      // Counted before it runs: a node that raises an error was still evaluated.
      if (counted.lastEvaluated !== test) {
        counted.lastEvaluated = test;
        counted.evaluated++;
      }
      const value = inner(scope, base);
      if (value === true && counted.lastTrue !== test) {
        counted.lastTrue = test;
        counted.wasTrue++;
      } else if (value === false && counted.lastFalse !== test) {
        counted.lastFalse = test;
        counted.wasFalse++;
      }
      return value;
    };
  }

  root(inner: Node): Node {
    return inner;
  }

  /** What the tests did to a node, or undefined when it was never prepared (its rule is on another channel). */
  tallyOf(expression: unknown): NodeTally | undefined {
    return typeof expression === "object" && expression !== null ? this.tallies.get(expression) : undefined;
  }
}
