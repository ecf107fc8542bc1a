import type { ClientManifest } from "./client-manifest.ts";
import { h, jsonText } from "./dom.ts";

function paramsTable(params: ClientManifest["params"]): HTMLElement {
  const entries = Object.entries(params ?? {});
  if (entries.length === 0) return h("p", {}, "No params.");
  return h(
    "table",
    { class: "params" },
    h("caption", {}, "Params"),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Name"), h("th", { scope: "col" }, "Value"))),
    h(
      "tbody",
      {},
      ...entries.map(([name, value]) =>
        h("tr", {}, h("th", { scope: "row" }, h("code", {}, name)), h("td", {}, h("code", {}, JSON.stringify(value)))),
      ),
    ),
  );
}

function typesTable(fieldTypes: ClientManifest["fieldTypes"]): HTMLElement {
  const rows = Object.entries(fieldTypes ?? {}).flatMap(([entity, fields]) =>
    Object.entries(fields).map(([pointer, type]) => ({ entity, pointer, type })),
  );
  if (rows.length === 0) return h("p", {}, "No field bound to a type.");
  return h(
    "table",
    { class: "types" },
    h("caption", {}, "Types of fields"),
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", { scope: "col" }, "Entity"),
        h("th", { scope: "col" }, "Field"),
        h("th", { scope: "col" }, "Type"),
      ),
    ),
    h(
      "tbody",
      {},
      ...rows.map((row) =>
        h("tr", {}, h("td", {}, row.entity), h("td", {}, h("code", {}, row.pointer)), h("td", {}, row.type)),
      ),
    ),
  );
}

function functionsList(functions: ClientManifest["functions"]): HTMLElement {
  const entries = Object.entries(functions ?? {});
  if (entries.length === 0) return h("p", {}, "No functions.");
  return h(
    "div",
    { class: "functions" },
    ...entries.map(([name, fn]) =>
      h(
        "details",
        {},
        h("summary", {}, h("code", {}, `${name}(${fn.params.join(", ")})`)),
        h("pre", {}, jsonText(fn.body)),
      ),
    ),
  );
}

/** The ruleset's params, field types, functions and custom operators, as the client manifest holds them. */
export function definitionsView(manifest: ClientManifest): HTMLElement {
  const operators = Array.isArray(manifest.operators) ? manifest.operators : Object.keys(manifest.operators ?? {});
  return h(
    "section",
    { class: "definitions", "aria-labelledby": "definitions-heading" },
    h("h2", { id: "definitions-heading" }, "Params, types and functions"),
    paramsTable(manifest.params),
    typesTable(manifest.fieldTypes),
    h("h3", {}, "Functions"),
    functionsList(manifest.functions),
    operators.length > 0 && h("p", {}, "Custom operators the host supplies: ", operators.join(", ")),
  );
}
