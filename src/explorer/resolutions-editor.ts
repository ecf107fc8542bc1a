import { acceptanceWords } from "../engine/explanation/resolution-wording.ts";
import { resolvableRules, type ClientManifest, type ResolvableRule } from "./client-manifest.ts";
import { h, uniqueId } from "./dom.ts";
import type { ResolutionChoice } from "./evaluation-request.ts";
import { wordsNodes } from "./words-nodes.ts";

interface Row {
  readonly resolvable: ResolvableRule;
  readonly ticked: HTMLInputElement;
  readonly justification: HTMLInputElement | undefined;
}

function choiceRow(resolvable: ResolvableRule): { row: Row; element: HTMLElement } {
  const { rule, type } = resolvable;
  const ticked = h("input", {
    type: "checkbox",
    name: "resolution",
    value: `${type} ${rule.id}`,
    id: uniqueId("resolution"),
  });
  const accepting = type === "accept-risk";
  const roles = rule.acceptance?.roles ?? [];
  const justificationRequired = (rule.acceptance?.justification ?? "required") !== "none";
  const justification = accepting
    ? h("input", { type: "text", name: "justification", autocomplete: "off", id: uniqueId("justification") })
    : undefined;
  const hint = accepting
    ? [
        `A justification is ${justificationRequired ? "required" : "optional"}; `,
        ...wordsNodes(acceptanceWords(roles)),
        roles.length === 0 ? "." : " (actor.roles above).",
      ]
    : "A warning that blocks until it is acknowledged.";
  const element = h(
    "div",
    { class: `resolution-choice resolution-${type}`, "data-rule": rule.id, "data-type": type },
    h(
      "div",
      { class: "check" },
      ticked,
      h(
        "label",
        { for: ticked.id },
        accepting ? "Accept the risk of " : "Acknowledge ",
        h("code", {}, rule.id),
        rule.title !== undefined && h("span", { class: "rule-name" }, rule.title),
      ),
    ),
    h("p", { class: "hint" }, hint),
    justification &&
      h(
        "div",
        { class: "control justification" },
        h("label", { for: justification.id }, "Justification (sent when ticked)"),
        justification,
      ),
  );
  return { row: { resolvable, ticked, justification }, element };
}

/**
 * The request's `resolutions`, chosen in the form: one choice for each resolution a client rule
 * offers (acknowledging a warning, accepting the risk of an error with a justification).
 */
export class ResolutionsEditor {
  readonly element: HTMLElement;
  readonly #rows: readonly Row[];

  constructor(manifest: ClientManifest) {
    const built = resolvableRules(manifest).map(choiceRow);
    this.#rows = built.map(({ row }) => row);
    this.element = h(
      "fieldset",
      { class: "resolutions-fields" },
      h("legend", {}, "Resolutions: what the user confirmed"),
      built.length === 0
        ? h("p", { class: "none" }, "No client rule of this ruleset can be acknowledged or accepted.")
        : built.map(({ element }) => element),
    );
  }

  /** The ticked resolutions, in the order of the manifest. */
  choices(): ResolutionChoice[] {
    return this.#rows
      .filter((row) => row.ticked.checked)
      .map((row) => ({
        rule: row.resolvable.rule.id,
        type: row.resolvable.type,
        justification: row.justification?.value ?? "",
      }));
  }
}
