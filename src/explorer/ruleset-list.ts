import { h, labelled, selectOf } from "./dom.ts";
import { fetchJson } from "./server-address.ts";

/** An entry of `GET /rulesets`. */
export interface RulesetEntry {
  readonly id: string;
  readonly version: string;
  readonly checksum: string;
  readonly title?: string;
  readonly status?: string;
  readonly scope?: readonly { readonly level: string; readonly id: string }[];
}

/** Every scope path some ruleset lies under (`acme`, `acme/payments`, ...), sorted. */
function scopePaths(entries: readonly RulesetEntry[]): string[] {
  const paths = new Set<string>();
  for (const entry of entries) {
    const ids = (entry.scope ?? []).map((segment) => segment.id);
    for (let length = 1; length <= ids.length; length++) paths.add(ids.slice(0, length).join("/"));
  }
  return [...paths].sort();
}

function scopeText(entry: RulesetEntry): string {
  return entry.scope === undefined
    ? "none (read from a bundle)"
    : entry.scope.map((segment) => `${segment.level}:${segment.id}`).join(" / ");
}

function rulesetRow(entry: RulesetEntry): HTMLElement {
  return h(
    "tr",
    { "data-ruleset-id": entry.id },
    h("td", {}, h("a", { href: `#/rulesets/${encodeURIComponent(entry.id)}` }, entry.id)),
    h("td", {}, entry.version),
    h("td", {}, entry.title ?? ""),
    h("td", { class: "scope" }, scopeText(entry)),
    h("td", {}, entry.status ?? ""),
    h("td", { class: "checksum" }, h("code", {}, entry.checksum)),
  );
}

function rulesetTable(entries: readonly RulesetEntry[]): HTMLElement {
  if (entries.length === 0) return h("p", { class: "empty" }, "No ruleset is served under this scope.");
  return h(
    "div",
    { class: "table-scroll" },
    h(
      "table",
      { class: "ruleset-list" },
      h("caption", {}, `${entries.length} ruleset(s)`),
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          ...["Id", "Version", "Title", "Scope", "Status", "Checksum"].map((name) => h("th", { scope: "col" }, name)),
        ),
      ),
      h("tbody", {}, ...entries.map(rulesetRow)),
    ),
  );
}

/** The list of served rulesets with a filter by scope (`GET /rulesets?scope=...`). */
export async function rulesetListView(): Promise<HTMLElement> {
  const all = (await fetchJson<{ rulesets: RulesetEntry[] }>("rulesets")).rulesets;
  const filter = selectOf([
    { value: "", label: "All scopes" },
    ...scopePaths(all).map((path) => ({ value: path, label: path.split("/").join(" / ") })),
  ]);
  filter.name = "scope";
  const table = h("div", { class: "ruleset-table", "aria-live": "polite" }, rulesetTable(all));
  filter.addEventListener("change", async () => {
    const scope = filter.value;
    const entries =
      scope === ""
        ? all
        : (await fetchJson<{ rulesets: RulesetEntry[] }>(`rulesets?scope=${encodeURIComponent(scope)}`)).rulesets;
    // A later choice may have answered first; show only the one the select holds now.
    if (filter.value === scope) table.replaceChildren(rulesetTable(entries));
  });
  return h(
    "section",
    { class: "ruleset-list-view", "aria-labelledby": "list-heading" },
    h("h1", { id: "list-heading", tabindex: "-1" }, "Rulesets"),
    h(
      "p",
      {},
      "The rulesets this server serves. Open one to see its client rules by place and to try requests against them.",
    ),
    labelled("Filter by scope", filter),
    table,
  );
}
