import type { ExplainedNode } from "../browser/rule-cascade.ts";
import { h, type Child } from "./dom.ts";
import {
  CUT_WORDS,
  DECIDED_WORDS,
  isLiteral,
  itemShownWords,
  nodeOutcome,
} from "../engine/explanation/node-wording.ts";

/** What a node came to: its value, "not evaluated" or its error; a literal's value is itself and is not repeated. */
function outcome(node: ExplainedNode): Child[] {
  const came = nodeOutcome(node);
  if (came.kind === "error") return [h("span", { class: "node-error" }, came.text)];
  if (came.kind === "skipped") return [h("span", { class: "node-skipped" }, came.text)];
  if (isLiteral(node.expr) || node.value === undefined) return [];
  return [h("span", { class: "node-value" }, "→ ", h("code", {}, came.text), came.cut ? ` ${CUT_WORDS}` : "")];
}

function nodeItem(node: ExplainedNode, pointer: string, deciding: ReadonlySet<string>): HTMLLIElement {
  const decides = deciding.has(pointer);
  return h(
    "li",
    {
      class: `expr-node${decides ? " deciding" : ""}${node.skipped ? " skipped" : ""}${node.error === undefined ? "" : " failed"}`,
      "data-pointer": pointer,
    },
    h(
      "div",
      { class: "node-line" },
      h("code", { class: "node-expr" }, node.text),
      ...outcome(node),
      node.item !== undefined && h("span", { class: "node-item" }, itemShownWords(node.item)),
      decides &&
        h(
          "span",
          { class: "badge decides", title: "One of the leaves that decided the rule's outcome" },
          DECIDED_WORDS,
        ),
    ),
    node.args !== undefined &&
      node.args.length > 0 &&
      h(
        "ul",
        { class: "expr-tree" },
        ...node.args.map((arg, index) => nodeItem(arg, `${pointer}/args/${index}`, deciding)),
      ),
  );
}

/**
 * An evaluated expression as a tree: each node as the text the engine gave it with its value beside it, its
 * arguments under it. `pointer` is the root's place in the rule's explanation (`/when`), so the
 * leaves the explanation names as deciding (`/when/args/1`) are marked.
 */
export function expressionTreeView(
  label: string,
  node: ExplainedNode,
  pointer: string,
  deciding: ReadonlySet<string>,
): HTMLElement {
  return h(
    "div",
    { class: "expr-root", "data-role": pointer },
    h("p", { class: "expr-label" }, label),
    h("ul", { class: "expr-tree" }, nodeItem(node, pointer, deciding)),
  );
}
