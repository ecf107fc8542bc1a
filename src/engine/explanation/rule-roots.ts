import type { ExplainedNode } from "./explanation.ts";

/**
 * The traced roots of one evaluation's rules, kept in one list that the tracer appends role and
 * node to as each root finishes: rules run one after another, so each rule's roots are a span of
 * it (one list and two numbers a rule, rather than a list a rule).
 */
export class RuleRoots {
  /** Role and root node in turn, in the order they ran. */
  readonly log: (string | ExplainedNode)[] = [];
  /** By rule position: where its span starts and ends (-1 while it is open). */
  private readonly starts: number[];
  private readonly ends: number[];
  private running = -1;

  constructor(ruleCount: number) {
    this.starts = new Array(ruleCount);
    this.ends = new Array(ruleCount);
  }

  /** A rule starts: its span opens, closing the last one's. */
  started(position: number): void {
    this.close();
    this.running = position;
    this.starts[position] = this.log.length;
    this.ends[position] = -1;
  }

  /** A rule starts on another item or field: what it recorded so far is not shown. */
  restart(position: number): void {
    this.starts[position] = this.log.length;
  }

  /** What the rule records from now on is not shown. */
  freeze(position: number): void {
    this.ends[position] = this.log.length;
  }

  /** The last root a rule recorded under a role. */
  rootOf(position: number, role: string): ExplainedNode | undefined {
    this.close();
    const log = this.log;
    const start = this.starts[position] ?? 0;
    for (let i = this.ends[position]! - 2; i >= start; i -= 2) if (log[i] === role) return log[i + 1] as ExplainedNode;
    return undefined;
  }

  private close(): void {
    if (this.running !== -1 && this.ends[this.running] === -1) this.ends[this.running] = this.log.length;
  }
}
