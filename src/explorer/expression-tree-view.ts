import type { ExplainedNode } from "../browser/rule-cascade.ts";
import { h, type Child } from "./dom.ts";
import { expressionText, isLiteral, valueText } from "./expression-text.ts";

/** A JSON Pointer segment (RFC 6901): `~` and `/` escaped. */
export function pointerSegment(name: string): string {
  return name.replaceAll("~", "~0").replaceAll("/", "~1");
}

/** What a node came to: its value, "not evaluated" or its error; a literal's value is itself and is not repeated. */
function outcome(node: ExplainedNode): Child[] {
  if (node.error !== undefined) return [h("span", { class: "node-error" }, "error: ", node.error)];
  if (node.skipped) return [h("span", { class: "node-skipped" }, "not evaluated")];
  if (isLiteral(node.expr) || node.value === undefined) return [];
  return [
    h("span", { class: "node-value" }, "→ ", h("code", {}, valueText(node.value)), node.truncated ? " (cut)" : ""),
  ];
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
      h("code", { class: "node-expr" }, expressionText(node.expr)),
      ...outcome(node),
      node.item !== undefined && h("span", { class: "node-item" }, `its body is shown for item ${node.item}`),
      decides &&
        h("span", { class: "badge decides", title: "One of the leaves that decided the rule's outcome" }, "decided"),
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
 * An evaluated expression as a tree: each node as readable text with its value beside it, its
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
