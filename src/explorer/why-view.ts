import type {
  EvaluationResult,
  Explanation,
  JsonObject,
  RuleExplanation,
  RuleStatus,
} from "../browser/rule-cascade.ts";
import type { ClientManifest, ManifestRule } from "./client-manifest.ts";
import { h, type Child } from "./dom.ts";
import { resolutionWords, statusLabel, statusWords, unmatchedWords, type Words } from "./explanation-text.ts";
import { expressionTreeView, pointerSegment } from "./expression-tree-view.ts";

const STATUS_ORDER: readonly RuleStatus[] = ["fired", "error", "passed", "when-false", "not-selected"];

function wordsNodes(words: Words): Child[] {
  return words.map((part) => (typeof part === "string" ? part : h("code", {}, part.code)));
}

/** The rule's evaluated expressions, each as a tree, with the leaves its `because` names marked. */
function trees(entry: RuleExplanation, rule: ManifestRule | undefined): HTMLElement[] {
  const deciding = new Set(Array.isArray(entry.because) ? entry.because : []);
  const shown: HTMLElement[] = [];
  if (entry.when !== undefined) shown.push(expressionTreeView("when", entry.when, "/when", deciding));
  if (entry.assert !== undefined) shown.push(expressionTreeView("assert", entry.assert, "/assert", deciding));
  entry.assign?.forEach((node, index) =>
    shown.push(
      expressionTreeView(`assign ${rule?.assign?.[index]?.field ?? index}`, node, `/assign/${index}`, deciding),
    ),
  );
  for (const [name, node] of Object.entries(entry.args ?? {}))
    shown.push(expressionTreeView(`message argument {${name}}`, node, `/args/${pointerSegment(name)}`, deciding));
  entry.commands?.forEach((command, index) => {
    command.idempotencyKey.forEach((node, part) =>
      shown.push(
        expressionTreeView(
          `command ${index + 1}, idempotency key part ${part + 1}`,
          node,
          `/commands/${index}/idempotencyKey/${part}`,
          deciding,
        ),
      ),
    );
    for (const [name, node] of Object.entries(command.payload))
      shown.push(
        expressionTreeView(
          `command ${index + 1}, payload ${name}`,
          node,
          `/commands/${index}/payload/${pointerSegment(name)}`,
          deciding,
        ),
      );
  });
  return shown;
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
    this.#output.replaceChildren(
      this.#decision(result),
      ...this.#unmatched(explanation, request),
      this.#resolutions(explanation, result),
      this.#summary(explanation),
      this.#ruleList(explanation, request),
    );
  }

  /** The decision and the rules whose findings made it: those that block. */
  #decision(result: EvaluationResult): HTMLElement {
    const blocking = [...new Set(result.findings.filter((finding) => finding.blocking).map((finding) => finding.rule))];
    return h(
      "p",
      { class: `why-decision decision-${result.decision}` },
      "Decision ",
      h("strong", {}, result.decision),
      blocking.length === 0
        ? ": no finding blocks."
        : [
            ": blocked by the finding(s) of ",
            ...blocking.flatMap((rule, index) => [index > 0 ? ", " : "", h("code", {}, rule)]),
            ".",
          ],
    );
  }

  #unmatched(explanation: Explanation, request: JsonObject): HTMLElement[] {
    if (explanation.unmatched === undefined) return [];
    return [
      h(
        "div",
        { class: "unmatched", role: "status" },
        ...unmatchedWords(explanation.unmatched, request).map((words) => h("p", {}, ...wordsNodes(words))),
      ),
    ];
  }

  #resolutions(explanation: Explanation, result: EvaluationResult): HTMLElement {
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
                h("span", { class: "badge" }, resolution.applied ? "applied" : "not applied"),
                " ",
                ...wordsNodes(
                  resolutionWords(
                    resolution,
                    typeof resolution.rule === "string" ? this.#rules.get(resolution.rule) : undefined,
                    result.findings,
                  ),
                ),
              ),
            ),
          ),
    );
  }

  #summary(explanation: Explanation): HTMLElement {
    const counts = STATUS_ORDER.map(
      (status) => [status, explanation.rules.filter((entry) => entry.status === status).length] as const,
    ).filter(([, count]) => count > 0);
    return h(
      "p",
      { class: "why-summary" },
      `${explanation.rules.length} rule(s): `,
      counts.map(([status, count]) => `${count} ${statusLabel(status)}`).join(", "),
      ".",
    );
  }

  #ruleList(explanation: Explanation, request: JsonObject): HTMLElement {
    return h("ol", { class: "why-rules" }, ...explanation.rules.map((entry) => this.#ruleEntry(entry, request)));
  }

  #ruleEntry(entry: RuleExplanation, request: JsonObject): HTMLElement {
    const rule = this.#rules.get(entry.rule);
    const head: Child[] = [
      h("span", { class: `badge status status-${entry.status}` }, statusLabel(entry.status)),
      " ",
      h("code", { class: "why-rule-id" }, entry.rule),
      rule?.title !== undefined && h("span", { class: "why-rule-title" }, ` ${rule.title}`),
      h("span", { class: "why-words" }, ...wordsNodes(statusWords(entry, rule, request))),
    ];
    const shown = trees(entry, rule);
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
