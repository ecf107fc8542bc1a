import { EvaluationError } from "../errors.ts";
import type { NodeTracer } from "../expression/node-tracer.ts";
import type { Node } from "../expression/prepared-node.ts";
import { readableValue, type ReadableValue } from "./readable-value.ts";

/**
 * What one evaluation of one node gave: its value (copied when recorded, since the working data
 * changes later) or its error, and the evaluations of its arguments, by argument index, one
 * record per evaluation (a collection's body is evaluated once per item).
 */
export interface TraceRecord {
  readonly expression: unknown;
  value?: ReadableValue;
  error?: string;
  readonly calls: TraceRecord[][];
}

/**
 * Records the values of traced nodes while a plan prepared with it evaluates (full
 * explanations). Evaluation is synchronous, so one tracer serves its plan: the recorder points
 * `roots` at the rule being explained before the rule runs, and every expression of the rule
 * stores its root record there under its role, the last evaluation winning.
 */
export class ExpressionTrace implements NodeTracer {
  /** Where the expressions of the rule being explained store their records. */
  roots = new Map<string, TraceRecord>();
  private open: TraceRecord | undefined;

  node(inner: Node, expression: unknown, index: number): Node {
    return (scope, base) => {
      const record: TraceRecord = { expression, calls: [] };
      const parent = this.open;
      if (parent !== undefined) (parent.calls[index] ??= []).push(record);
      this.open = record;
      try {
        const value = inner(scope, base);
        record.value = readableValue(value);
        return value;
      } catch (error) {
        record.error = errorText(error);
        throw error;
      } finally {
        this.open = parent;
      }
    };
  }

  root(inner: Node, role: string): Node {
    return (scope, base) => {
      const holder: TraceRecord = { expression: null, calls: [] };
      const parent = this.open;
      this.open = holder;
      try {
        return inner(scope, base);
      } finally {
        this.open = parent;
        const record = holder.calls[0]?.[0];
        if (record !== undefined) this.roots.set(role, record);
      }
    };
  }
}

function errorText(error: unknown): string {
  return error instanceof EvaluationError ? error.message : `internal error: ${error instanceof Error ? error.message : String(error)}`;
}

