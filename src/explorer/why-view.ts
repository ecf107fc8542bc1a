import type { EvaluationResult, Explanation, JsonObject, RuleExplanation } from "../browser/rule-cascade.ts";
import { decisionWords, summaryWords } from "../engine/explanation/decision-wording.ts";
import { decidingPointers, explainedTrees } from "../engine/explanation/explained-trees.ts";
import {
  resolutionLabel,
  resolutionNameWords,
  resolutionReasonWords,
} from "../engine/explanation/resolution-wording.ts";
import { ruleWords, statusLabel } from "../engine/explanation/rule-status-wording.ts";
import { unmatchedWords } from "../engine/explanation/unmatched-wording.ts";
import type { ExplanationContext } from "../engine/explanation/wording-context.ts";
import type { ClientManifest, ManifestRule } from "./client-manifest.ts";
import { h, type Child } from "./dom.ts";
import { expressionTreeView } from "./expression-tree-view.ts";
import { wordsNodes } from "./words-nodes.ts";

/** The rule's evaluated expressions, each as a tree, with the leaves its `because` names marked. */
function trees(entry: RuleExplanation, context: ExplanationContext): HTMLElement[] {
  const deciding = decidingPointers(entry);
  return explainedTrees(entry, context).map((tree) =>
    expressionTreeView(tree.label, tree.node, tree.pointer, deciding),
  );
}

/**
 * Why the page's evaluation came out as it did: a misspelt entity or operation, what became of
 * each resolution, and every client rule in manifest order with what it did, each (when it ran)
 * opening onto its expressions with their values. Rules a person opened stay open as they type.
 */
export class WhyView {
  readonly element: HTMLElement;
  readonly #output: HTMLElement;
  readonly #rules: ReadonlyMap<string, ManifestRule>;
  readonly #open = new Set<string>();

  constructor(manifest: ClientManifest) {
    this.#rules = new Map(manifest.rules.map((rule) => [rule.id, rule]));
    this.#output = h("div", { class: "why-output" });
    this.element = h(
      "section",
      { class: "why", "aria-labelledby": "why-heading" },
      h("h3", { id: "why-heading" }, "Why: what each rule did (in this page)"),
      h(
        "p",
        { class: "hint" },
        "Every client rule, in the order of the manifest. Open a rule that ran to see its expressions with the value of each part; the parts that decided are marked.",
      ),
      this.#output,
    );
  }

  /** No evaluation to explain (the request cannot be built, or the engine refused it). */
  unavailable(reason: string): void {
    this.#output.replaceChildren(h("p", { class: "none" }, reason));
  }

  show(result: EvaluationResult, request: JsonObject): void {
    const explanation = result.explanation;
    if (explanation === undefined) {
      this.unavailable("The engine gave no explanation.");
      return;
    }
    const context: ExplanationContext = { request, result, rules: this.#rules };
    this.#output.replaceChildren(
      this.#decision(result),
      ...this.#unmatched(explanation, context),
      this.#resolutions(explanation, context),
      h("p", { class: "why-summary" }, ...wordsNodes(summaryWords(explanation)), "."),
      h("ol", { class: "why-rules" }, ...explanation.rules.map((entry) => this.#ruleEntry(entry, context))),
    );
  }

  /** The decision and why: the rules whose findings block it, or that none does. */
  #decision(result: EvaluationResult): HTMLElement {
    return h(
      "p",
      { class: `why-decision decision-${result.decision}` },
      "Decision ",
      h("strong", {}, result.decision),
      ": ",
      ...wordsNodes(decisionWords(result)),
      ".",
    );
  }

  #unmatched(explanation: Explanation, context: ExplanationContext): HTMLElement[] {
    if (explanation.unmatched === undefined) return [];
    return [
      h(
        "div",
        { class: "unmatched", role: "status" },
        ...unmatchedWords(explanation.unmatched, context).map((words) => h("p", {}, ...wordsNodes(words))),
      ),
    ];
  }

  #resolutions(explanation: Explanation, context: ExplanationContext): HTMLElement {
    const given = explanation.resolutions;
    return h(
      "div",
      { class: "why-resolutions" },
      h("h4", {}, `Resolutions (${given.length})`),
      given.length === 0
        ? h("p", { class: "none" }, "None given: tick one under Resolutions in the form to try it.")
        : h(
            "ul",
            {},
            ...given.map((resolution) =>
              h(
                "li",
                {
                  class: `resolution ${resolution.applied ? "applied" : "refused"}`,
                  "data-rule": typeof resolution.rule === "string" ? resolution.rule : undefined,
                },
                h("span", { class: "badge" }, resolutionLabel(resolution)),
                " ",
                ...wordsNodes(resolutionNameWords(resolution)),
                ": ",
                ...wordsNodes(resolutionReasonWords(resolution, context)),
              ),
            ),
          ),
    );
  }

  #ruleEntry(entry: RuleExplanation, context: ExplanationContext): HTMLElement {
    const rule = this.#rules.get(entry.rule);
    const head: Child[] = [
      h("span", { class: `badge status status-${entry.status}` }, statusLabel(entry.status)),
      " ",
      h("code", { class: "why-rule-id" }, entry.rule),
      rule?.title !== undefined && h("span", { class: "why-rule-title" }, ` ${rule.title}`),
      h("span", { class: "why-words" }, ...wordsNodes(ruleWords(entry, context))),
    ];
    const shown = trees(entry, context);
    const attributes = {
      class: `why-rule status-${entry.status}`,
      "data-rule": entry.rule,
      "data-status": entry.status,
    };
    if (shown.length === 0) return h("li", attributes, h("div", { class: "why-head" }, ...head));
    const details = h(
      "details",
      { open: this.#open.has(entry.rule) },
      h("summary", { class: "why-head" }, ...head),
      h("div", { class: "why-trees" }, ...shown),
    );
    details.addEventListener("toggle", () => {
      if (details.open) this.#open.add(entry.rule);
      else this.#open.delete(entry.rule);
    });
    return h("li", attributes, details);
  }
}
