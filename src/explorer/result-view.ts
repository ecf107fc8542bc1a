import type { Command, Effect, EvaluationResult, Finding } from "../browser/rule-cascade.ts";
import type { PlaceLevel } from "./client-manifest.ts";
import { h, jsonText, type Child } from "./dom.ts";
import { placeLabel } from "../engine/explanation/place-label.ts";

/** How to show one answer: where its rules sit, and which findings to mark as differing from the other answer. */
export interface ResultMarks {
  /** The place a rule's target names, from the client manifest (effects and commands carry none). */
  readonly placeOfRule: (ruleId: string) => Partial<Record<PlaceLevel, string>> | undefined;
  readonly markedFindings?: ReadonlySet<Finding>;
  readonly markLabel?: string;
  /** Rules the client manifest does not hold. */
  readonly serverOnlyRules?: ReadonlySet<string>;
}

function where(place: Partial<Record<PlaceLevel, string>> | undefined, fields: readonly string[]): HTMLElement {
  return h(
    "span",
    { class: "where" },
    "at ",
    h("span", { class: "location" }, placeLabel(place)),
    ...fields.flatMap((field) => [" · ", h("code", {}, field)]),
  );
}

function findingItem(finding: Finding, marks: ResultMarks): HTMLElement {
  const marked = marks.markedFindings?.has(finding) ?? false;
  const serverOnly = marks.serverOnlyRules?.has(finding.rule) ?? false;
  return h(
    "li",
    { class: `finding severity-${finding.severity}${marked ? " differs" : ""}`, "data-rule": finding.rule },
    h("span", { class: `badge severity severity-${finding.severity}` }, finding.severity),
    " ",
    h("code", { class: "code" }, finding.code),
    marked && h("span", { class: "badge mark" }, serverOnly ? "server-only rule" : (marks.markLabel ?? "differs")),
    h("span", { class: "message" }, finding.message),
    where(finding.location ?? marks.placeOfRule(finding.rule), finding.fields),
    h(
      "span",
      { class: "finding-facts" },
      `rule ${finding.rule} · ${finding.blocking ? "blocking" : "not blocking"} · ${finding.status}`,
      finding.resolution === "none" ? "" : ` · may be resolved by ${finding.resolution}`,
      finding.detail === undefined ? "" : ` · ${finding.detail}`,
    ),
  );
}

function effectItem(effect: Effect, marks: ResultMarks): HTMLElement {
  const what =
    effect.type === "value"
      ? `value ${JSON.stringify(effect.value)}`
      : `state ${Object.entries(effect.set)
          .map(([name, value]) => `${name} = ${JSON.stringify(value)}`)
          .join(", ")}`;
  return h(
    "li",
    { class: "effect", "data-rule": effect.rule },
    h("code", {}, effect.field),
    " ← ",
    what,
    where(marks.placeOfRule(effect.rule), []),
    h("span", { class: "finding-facts" }, `rule ${effect.rule}`),
  );
}

function commandItem(command: Command, marks: ResultMarks): HTMLElement {
  return h(
    "li",
    { class: "command", "data-rule": command.rule },
    h("code", {}, `${String(command.type)} ${String(command.name)}`),
    where(marks.placeOfRule(command.rule), []),
    h("span", { class: "finding-facts" }, `rule ${command.rule} · key ${command.idempotencyKey}`),
    h("pre", {}, jsonText(command.payload)),
  );
}

function listOf<T>(title: string, className: string, items: readonly T[], item: (value: T) => HTMLElement): Child[] {
  return [
    h("h4", {}, `${title} (${items.length})`),
    items.length === 0 ? h("p", { class: "none" }, "None.") : h("ul", { class: className }, ...items.map(item)),
  ];
}

/** An evaluation's answer: the decision, then its findings, effects and commands, each at its place. */
export function resultView(result: EvaluationResult, marks: ResultMarks): HTMLElement {
  return h(
    "div",
    { class: "result" },
    h(
      "p",
      { class: `decision decision-${result.decision}` },
      "Decision: ",
      h("strong", {}, result.decision),
      result.blocking ? " (a finding blocks)" : "",
    ),
    ...listOf("Findings", "findings", result.findings, (finding) => findingItem(finding, marks)),
    ...listOf("Effects", "effects", result.effects, (effect) => effectItem(effect, marks)),
    ...listOf("Commands", "commands", result.commands, (command) => commandItem(command, marks)),
  );
}
