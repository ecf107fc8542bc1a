import { EvaluationError } from "../errors.ts";
import { callArguments, operatorOf } from "../expression/expression-shape.ts";
import type { NodeTracer } from "../expression/node-tracer.ts";
import type { Node } from "../expression/prepared-node.ts";
import type { JsonValue } from "../value/json-value.ts";
import { isValueObject } from "../value/value-kind.ts";
import { recordReadable } from "./readable-value.ts";

/** Operators whose second argument is evaluated once per item of the first. */
const COLLECTIONS = new Set(["all", "some", "none", "sum", "map", "filter"]);

/** What is known of a traced node when it is prepared, so that explaining reads no expression twice. */
export interface TraceSite {
  readonly expression: unknown;
  /** The arguments as written, for an `{op|fn, args}` node. */
  readonly rawArgs: readonly unknown[] | undefined;
  readonly operator: string | undefined;
  /** A collection operator, whose body (argument 1) is evaluated once per item. */
  readonly collection: boolean;
}

/**
 * What one evaluation of one node gave: its value (copied when recorded, since the working data
 * changes later) or its error, and the evaluations of its arguments in the order they ran, one
 * record per evaluation (a collection's body is evaluated once per item).
 */
export interface TraceRecord {
  readonly site: TraceSite;
  /** The record of the node whose argument this one is; undefined for a root's holder. */
  readonly parent: TraceRecord | undefined;
  /** Set once the node has a value: `undefined` means none (an error, or still running). */
  value: JsonValue | undefined;
  truncated: boolean;
  error: string | undefined;
  /** This node's place among its parent's arguments. */
  readonly index: number;
  /** The evaluations of its arguments in the order they ran (a collection's body once per item); leaves have none. */
  children: TraceRecord[] | undefined;
}

const ROOT_SITE: TraceSite = { expression: null, rawArgs: undefined, operator: undefined, collection: false };

/**
 * Where the expressions of the rule being explained store their root records: role and record
 * in turn, in the order they ran (a rule has a few; a list is cheaper than a map per rule).
 */
export interface TraceSink {
  roots: (string | TraceRecord)[] | undefined;
}

/** The last root recorded for a role. */
export function rootOf(roots: readonly (string | TraceRecord)[] | undefined, role: string): TraceRecord | undefined {
  if (roots === undefined) return undefined;
  for (let i = roots.length - 2; i >= 0; i -= 2) if (roots[i] === role) return roots[i + 1] as TraceRecord;
  return undefined;
}

/**
 * Records the values of traced nodes while a plan prepared with it evaluates (full
 * explanations). Evaluation is synchronous, so one tracer serves its plan: the recorder points
 * `roots` at the rule being explained before the rule runs, and every expression of the rule
 * stores its root record there under its role, the last evaluation winning.
 */
export class ExpressionTrace implements NodeTracer {
  /** Where the expressions of the rule being explained store their records. */
  sink: TraceSink = { roots: undefined };
  private open: TraceRecord | undefined;

  node(inner: Node, expression: unknown, index: number): Node {
    const rawArgs = isValueObject(expression) ? callArguments(expression) : undefined;
    const operator = rawArgs === undefined ? undefined : operatorOf(expression as Record<string, never>);
    const site: TraceSite = { expression, rawArgs, operator, collection: operator !== undefined && COLLECTIONS.has(operator) };
    // No try here: a node that throws leaves `open` at itself, and its root marks the chain (below).
    return (scope, base) => {
      const parent = this.open;
      const record: TraceRecord = { site, parent, index, value: undefined, truncated: false, error: undefined, children: undefined };
      if (parent !== undefined) (parent.children ??= []).push(record);
      this.open = record;
      const value = inner(scope, base);
      this.open = parent;
      recordReadable(record, value);
      return value;
    };
  }

  root(inner: Node, role: string): Node {
    return (scope, base) => {
      const holder: TraceRecord = { site: ROOT_SITE, parent: undefined, index: 0, value: undefined, truncated: false, error: undefined, children: undefined };
      this.open = holder;
      try {
        return inner(scope, base);
      } catch (error) {
        // The error went up through every node still open: each of them raised it.
        const text = errorText(error);
        for (let record: TraceRecord | undefined = this.open; record !== undefined && record !== holder; record = record.parent) record.error = text;
        throw error;
      } finally {
        this.open = undefined;
        const record = holder.children?.[0];
        if (record !== undefined) (this.sink.roots ??= []).push(role, record);
      }
    };
  }
}

function errorText(error: unknown): string {
  return error instanceof EvaluationError ? error.message : `internal error: ${error instanceof Error ? error.message : String(error)}`;
}
