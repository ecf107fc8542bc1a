import { loadRuleset, type JsonValue } from "../browser/rule-cascade.ts";
import { manifestLocales, type ClientManifest } from "./client-manifest.ts";
import { definitionsView } from "./definitions-view.ts";
import { h } from "./dom.ts";
import { ruleView } from "./rule-view.ts";
import { fetchJson } from "./server-address.ts";
import { tryItForm } from "./try-it-form.ts";

/** One ruleset: its client manifest loaded into the engine, its rules by place, the try-it panel and its definitions. */
export async function rulesetPage(id: string): Promise<HTMLElement> {
  const manifest = await fetchJson<ClientManifest>(`rulesets/${encodeURIComponent(id)}/manifest?channel=client`);
  const ruleset = await loadRuleset(manifest as unknown as JsonValue);
  const locales = manifestLocales(manifest);
  return h(
    "article",
    { class: "ruleset-page", "data-ruleset-id": manifest.id },
    h("p", { class: "back" }, h("a", { href: "#/" }, "← All rulesets")),
    h(
      "h1",
      { id: "ruleset-heading", tabindex: "-1" },
      manifest.id,
      " ",
      h("span", { class: "version" }, manifest.version),
    ),
    h("p", { class: "checksum" }, "Checksum ", h("code", {}, manifest.checksum)),
    h(
      "p",
      { class: "facts" },
      `${manifest.rules.length} client rule(s); messages in ${locales.join(", ") || "no locale"}.`,
      ruleset.missingOperators.length > 0
        ? ` Custom operators this page lacks (their rules fail closed here): ${ruleset.missingOperators.join(", ")}.`
        : "",
    ),
    h(
      "nav",
      { class: "jump", "aria-label": "On this page" },
      h("a", { href: "#try-it" }, "Try it"),
      h("a", { href: "#why-heading" }, "Why this result"),
      h("a", { href: "#rules-heading" }, "Rules by place"),
      h("a", { href: "#definitions-heading" }, "Params, types and functions"),
    ),
    tryItForm(manifest, ruleset),
    ruleView(manifest, locales),
    definitionsView(manifest),
  );
}
