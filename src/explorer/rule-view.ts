import { messageIn, ruleFields, type ClientManifest, type ManifestRule } from "./client-manifest.ts";
import { h, type Child } from "./dom.ts";
import { findingResolutionWords } from "../engine/explanation/resolution-wording.ts";
import { readableExpressionText } from "../engine/expression-text/print-expression-text.ts";
import { groupRulesByPlace, type PlaceGroup } from "./rule-places.ts";
import { wordsNodes } from "./words-nodes.ts";

const HEADING = ["h3", "h4", "h5", "h6"] as const;

/** What a state or compute rule does: the values it computes (and how) or the properties it sets. */
function ruleOutcome(rule: ManifestRule): Child {
  if (rule.assign) {
    return h(
      "ul",
      { class: "rule-outcome" },
      ...rule.assign.map((assignment) =>
        h(
          "li",
          {},
          "Computes ",
          h("code", {}, assignment.field),
          " = ",
          assignment.value === undefined
            ? ""
            : h("code", { class: "condition" }, readableExpressionText(assignment.value)),
          h(
            "span",
            { class: "hint" },
            (assignment.mode ?? "default") === "default" ? " (only when the field is missing)" : " (always)",
          ),
        ),
      ),
    );
  }
  if (rule.effects) {
    return h(
      "p",
      { class: "rule-outcome" },
      "Sets ",
      ...rule.effects.flatMap((effect, index) => [
        index > 0 ? "; " : "",
        h("code", {}, effect.field),
        " ",
        Object.entries(effect.set)
          .map(([name, value]) => `${name} = ${JSON.stringify(value)}`)
          .join(", "),
      ]),
    );
  }
  return null;
}

/** A condition of the rule, as readable text (the notation rules are written in). */
function condition(expression: ManifestRule["when"]): Child {
  return expression === undefined ? undefined : h("code", { class: "condition" }, readableExpressionText(expression));
}

/** How the rule's finding may be resolved, in the explanation's words; nothing when it cannot be. */
function resolutionDefinition(rule: ManifestRule): Child[] {
  const words = findingResolutionWords(rule);
  return words === undefined ? [] : wordsNodes(words);
}

function definition(term: string, value: Child | readonly Child[]): Child[] {
  return value === undefined || (Array.isArray(value) && value.length === 0)
    ? []
    : [h("dt", {}, term), h("dd", {}, ...(Array.isArray(value) ? value : [value]))];
}

/** The rule's message in every locale of the manifest, as the catalogs hold it (placeholders unrendered). */
function messagesTable(rule: ManifestRule, manifest: ClientManifest, locales: readonly string[]): Child {
  const key = rule.finding?.message;
  if (key === undefined) return null;
  return h(
    "table",
    { class: "messages" },
    h("caption", {}, "Messages"),
    h(
      "tbody",
      {},
      ...locales.map((locale) => {
        const found = messageIn(manifest, locale, key);
        const text =
          found === undefined
            ? h("em", {}, `no message; the key ${key} is shown`)
            : [found.text, found.from === locale ? "" : h("span", { class: "hint" }, ` (from ${found.from})`)];
        return h(
          "tr",
          { lang: found?.from ?? locale },
          h("th", { scope: "row" }, locale),
          h("td", {}, ...[text].flat()),
        );
      }),
    ),
  );
}

function ruleCard(rule: ManifestRule, manifest: ClientManifest, locales: readonly string[]): HTMLElement {
  const fields = ruleFields(rule);
  return h(
    "li",
    { class: "rule", id: `rule-${rule.id}`, "data-rule-id": rule.id },
    h("p", { class: "rule-title" }, rule.title ?? rule.id),
    h(
      "p",
      { class: "rule-badges" },
      h("span", { class: `badge kind kind-${rule.kind}` }, rule.kind),
      rule.severity && h("span", { class: `badge severity severity-${rule.severity}` }, rule.severity),
      h("code", { class: "rule-id" }, rule.id),
    ),
    h(
      "dl",
      { class: "rule-facts" },
      ...definition("Entity", rule.target.entity),
      ...definition("Type", rule.target.type && `every field of type ${rule.target.type}`),
      ...definition("Operations", rule.operations.join(", ")),
      ...definition("Triggers", (rule.triggers ?? ["submit"]).join(", ")),
      ...definition(
        "Fields",
        fields.flatMap((field, index) => [index > 0 ? ", " : "", h("code", {}, field)]),
      ),
      ...definition("When", condition(rule.when)),
      ...definition("Asserts", condition(rule.assert)),
      ...definition("Resolution", resolutionDefinition(rule)),
      ...definition("Code", rule.finding && h("code", {}, rule.finding.code)),
      ...definition("From", rule.origin),
    ),
    ruleOutcome(rule),
    messagesTable(rule, manifest, locales),
  );
}

function groupHeading(group: PlaceGroup, depth: number): HTMLElement {
  const tag = HEADING[Math.min(depth, HEADING.length - 1)]!;
  if (group.level === "everywhere")
    return h(tag, {}, "Everywhere ", h("span", { class: "hint" }, "(rules that name no place)"));
  return h(tag, {}, h("span", { class: "place-level" }, group.level), " ", h("code", {}, group.id));
}

function groupSection(
  group: PlaceGroup,
  manifest: ClientManifest,
  locales: readonly string[],
  depth: number,
): HTMLElement {
  return h(
    "section",
    { class: `place place-${group.level}`, "data-place": group.id, "data-level": group.level },
    groupHeading(group, depth),
    group.rules.length > 0 &&
      h("ul", { class: "rules" }, ...group.rules.map((rule) => ruleCard(rule, manifest, locales))),
    ...group.inner.map((inner) =>
      groupSection(inner, manifest, locales, group.level === "everywhere" ? depth : depth + 1),
    ),
  );
}

/** The client rules grouped by place: page, then screen, section and component. */
export function ruleView(manifest: ClientManifest, locales: readonly string[]): HTMLElement {
  const tree = groupRulesByPlace(manifest.rules);
  const everywhere = { ...tree, inner: [] };
  return h(
    "section",
    { class: "rule-view", "aria-labelledby": "rules-heading" },
    h("h2", { id: "rules-heading" }, `Client rules by place (${manifest.rules.length})`),
    everywhere.rules.length > 0 && groupSection(everywhere, manifest, locales, 0),
    ...tree.inner.map((group) => groupSection(group, manifest, locales, 0)),
  );
}
