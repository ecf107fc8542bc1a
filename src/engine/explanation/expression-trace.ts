import { failureDetail } from "../evaluation/failed-closed.ts";
import { callArguments, operatorOf } from "../expression/expression-shape.ts";
import type { NodeTracer } from "../expression/node-tracer.ts";
import { COLLECTION_OPERATORS } from "../expression/operators/operator-kinds.ts";
import type { Node } from "../expression/prepared-node.ts";
import { ReadableExpressionTexts } from "../expression-text/print-expression-text.ts";
import type { JsonValue } from "../value/json-value.ts";
import { isValueObject, type Value } from "../value/value-kind.ts";
import { filledArgs, literalNode, raisingNode, shownNode, skippedNode } from "./explained-node.ts";
import type { ExplainedNode } from "./explanation.ts";

/**
 * For the collection operators (their body runs once per item), the value a body must give for its
 * item to be the one shown: the first false item of `all`, the first true one of `some` and
 * `none`; the others (and those with no such item) show the first.
 */
const SHOWN_ITEM_GIVES: Readonly<Record<string, boolean>> = { all: false, some: true, none: true };

/** The nodes of a node's arguments while it runs, by place; those still empty when it finishes were skipped. */
type Slots = (ExplainedNode | undefined)[];

/** The collection being evaluated: its slots, and which item's body slot 1 shows. */
interface BodyChoice {
  readonly slots: Slots;
  readonly wanted: boolean | undefined;
  /** How many items' bodies finished after the first. */
  later: number;
  /** The item whose body slot 1 holds. */
  shown: number;
}

/**
 * Makes the explained nodes of traced expressions while a plan prepared with it evaluates (full
 * explanations): each node, as it finishes, becomes its node of the explanation (its value copied,
 * since the working data changes later) in its parent's argument slots, so that explaining builds
 * no second tree. Evaluation is synchronous, so one tracer serves its plan: the recorder of the
 * evaluation running gives it `roots`, where each root node is appended under its role.
 */
export class ExpressionTrace implements NodeTracer {
  /** Role and root node in turn (RuleRoots.log). */
  roots: (string | ExplainedNode)[] = [];
  /** The slots of the node running now (a root's holder when it is the root). */
  private open: Slots = [undefined];
  /** The innermost collection running, for its body's second and later items. */
  private body: BodyChoice | undefined;
  /** Roots never nest (function bodies are not traced), so they share one holder. */
  private readonly holder: Slots = [undefined];
  /**
   * Set while the recorder needs no trees (an item or field that is not the last of its rule, or
   * one after the shown one): its roots evaluate as a plain plan's expressions do, and show nothing.
   */
  quiet = false;
  /**
   * The text of every node, printed as the plan is prepared (arguments before the node that holds
   * them, each once): nodes made while evaluating only carry it. Also the texts of the plan's
   * expressions never evaluated (PlanIndex's tree layouts).
   */
  readonly texts = new ReadableExpressionTexts();

  node(inner: Node, expression: unknown, index: number): Node {
    const expr = expression as JsonValue;
    const text = this.texts.of(expression);
    const rawArgs = isValueObject(expression) ? callArguments(expression) : undefined;
    if (rawArgs === undefined) {
      const literal = typeof expression !== "object" || expression === null ? literalNode(expr, text) : undefined;
      return literal !== undefined ? this.literal(inner, literal, index) : this.leaf(inner, expr, text, index);
    }
    const skipped = rawArgs.map((arg) => skippedNode(arg, this.texts.of(arg)));
    const operator = operatorOf(expression as Record<string, never>);
    if (operator !== undefined && COLLECTION_OPERATORS.has(operator))
      return this.collection(inner, expr, text, skipped, index, SHOWN_ITEM_GIVES[operator]);
    return this.call(inner, expr, text, skipped, index);
  }

  root(inner: Node, role: string, untraced: () => Node): Node {
    // A quiet root runs as a plain plan's would (generated code where it can): its nodes are not shown.
    const plain = untraced();
    return (scope, base) => {
      if (this.quiet) return plain(scope, base);
      const holder = this.holder;
      holder[0] = undefined;
      this.open = holder;
      let value: Value;
      try {
        value = inner(scope, base);
      } catch (error) {
        this.keep(role);
        throw error;
      }
      this.keep(role);
      return value;
    };
  }

  /** Stores the root node a root's holder got, under its role. */
  private keep(role: string): void {
    const node = this.holder[0];
    if (node !== undefined) this.roots.push(role, node);
  }

  /** A literal: its node is made once, and placed each time it is evaluated. */
  private literal(inner: Node, node: ExplainedNode, index: number): Node {
    return (scope, base) => {
      let value: Value;
      try {
        // The literal itself, unless it sits deeper than expressions may nest.
        value = inner(scope, base);
      } catch (error) {
        this.place(index, raisingNode(node.expr, node.text, failureDetail(error), undefined, undefined));
        throw error;
      }
      this.place(index, node);
      return value;
    };
  }

  /** Any other literal, a variable, or a node that is not an expression: no arguments. */
  private leaf(inner: Node, expr: JsonValue, text: string, index: number): Node {
    return (scope, base) => {
      let value: Value;
      try {
        value = inner(scope, base);
      } catch (error) {
        this.place(index, raisingNode(expr, text, failureDetail(error), undefined, undefined));
        throw error;
      }
      this.place(index, shownNode(expr, text, value, undefined, undefined));
      return value;
    };
  }

  /** An operator or function call: its arguments' nodes fill its slots while it runs. */
  private call(inner: Node, expr: JsonValue, text: string, skipped: readonly ExplainedNode[], index: number): Node {
    const count = skipped.length;
    return (scope, base) => {
      const outer = this.open;
      const slots = emptySlots(count);
      this.open = slots;
      let value: Value;
      try {
        value = inner(scope, base);
      } catch (error) {
        this.open = outer;
        this.place(index, raisingNode(expr, text, failureDetail(error), filledArgs(slots, skipped), undefined));
        throw error;
      }
      this.open = outer;
      this.place(index, shownNode(expr, text, value, filledArgs(slots, skipped), undefined));
      return value;
    };
  }

  /** A collection operator: its body's slot shows the item that decided (BodyChoice). */
  private collection(
    inner: Node,
    expr: JsonValue,
    text: string,
    skipped: readonly ExplainedNode[],
    index: number,
    wanted: boolean | undefined,
  ): Node {
    const count = skipped.length;
    return (scope, base) => {
      const outer = this.open;
      const outerBody = this.body;
      const slots = emptySlots(count);
      const body: BodyChoice = { slots, wanted, later: 0, shown: 0 };
      this.open = slots;
      this.body = body;
      let value: Value;
      try {
        value = inner(scope, base);
      } catch (error) {
        this.open = outer;
        this.body = outerBody;
        this.place(index, raisingNode(expr, text, failureDetail(error), filledArgs(slots, skipped), shownItem(body)));
        throw error;
      }
      this.open = outer;
      this.body = outerBody;
      this.place(index, shownNode(expr, text, value, filledArgs(slots, skipped), shownItem(body)));
      return value;
    };
  }

  /** Puts a finished node in its parent's slot: the first evaluation of an argument is the one shown, but for a collection's body. */
  private place(index: number, node: ExplainedNode): void {
    const slots = this.open;
    if (slots[index] === undefined) slots[index] = node;
    else if (this.body !== undefined && this.body.slots === slots) chooseItem(this.body, node);
  }
}

/** Another item's body finished: it replaces the one shown if it is the first to give the deciding value. */
function chooseItem(body: BodyChoice, node: ExplainedNode): void {
  body.later++;
  if (body.wanted !== undefined && body.slots[1]!.value !== body.wanted && node.value === body.wanted) {
    body.slots[1] = node;
    body.shown = body.later;
  }
}

/** The item a collection's body is shown for, once the body ran (asked before its slots are filled). */
function shownItem(body: BodyChoice): number | undefined {
  return body.slots[1] === undefined ? undefined : body.shown;
}

/** Slots for a node's arguments: literals for the usual few (cheaper than `new Array`). */
function emptySlots(count: number): Slots {
  switch (count) {
    case 1:
      return [undefined];
    case 2:
      return [undefined, undefined];
    case 3:
      return [undefined, undefined, undefined];
    default:
      return new Array(count);
  }
}
