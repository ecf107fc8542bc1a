import { SymbolKind, type DocumentSymbol, type SymbolInformation } from "vscode-languageserver/node";
import type { SourceLocator } from "../compiler/source/source-position.ts";
import { listAt, objectAt, stringAt } from "../engine/value/json-access.ts";
import type { JsonValue } from "../engine/value/json-value.ts";
import { uriOfPath } from "./file-uri.ts";
import { rangeAt } from "./text-range.ts";

/** The outline of a ruleset source: its rules, params, functions, messages (by locale) and tests. */
export function documentSymbols(
  document: JsonValue | undefined,
  locate: SourceLocator | undefined,
  text: string | undefined,
): DocumentSymbol[] {
  if (locate === undefined) return [];
  const root = objectAt(document);
  const symbol = (
    name: string,
    kind: SymbolKind,
    path: string[],
    detail?: string,
    children?: DocumentSymbol[],
  ): DocumentSymbol | undefined => {
    const position = locate(path, "key") ?? locate(path, "value");
    if (position === undefined) return undefined;
    const range = rangeAt(text, position.line, position.column);
    return {
      name: name || "(unnamed)",
      kind,
      range,
      selectionRange: range,
      ...(detail === undefined ? {} : { detail }),
      ...(children === undefined ? {} : { children }),
    };
  };
  const group = (
    member: string,
    kind: SymbolKind,
    children: (DocumentSymbol | undefined)[],
  ): DocumentSymbol | undefined => {
    const present = children.filter((child): child is DocumentSymbol => child !== undefined);
    return present.length === 0 ? undefined : symbol(member, kind, [member], undefined, present);
  };
  const symbols = [
    group(
      "rules",
      SymbolKind.Namespace,
      listAt(root.rules).map((rule, index) =>
        symbol(
          stringAt(objectAt(rule).id),
          SymbolKind.Function,
          ["rules", String(index), "id"],
          stringAt(objectAt(rule).kind) || "validation",
        ),
      ),
    ),
    group(
      "params",
      SymbolKind.Namespace,
      Object.entries(objectAt(root.params)).map(([name, param]) =>
        symbol(name, SymbolKind.Constant, ["params", name], stringAt(objectAt(param).type)),
      ),
    ),
    group(
      "functions",
      SymbolKind.Namespace,
      Object.keys(objectAt(root.functions)).map((name) => symbol(name, SymbolKind.Function, ["functions", name])),
    ),
    group(
      "messages",
      SymbolKind.Namespace,
      Object.entries(objectAt(root.messages)).map(([locale, catalog]) =>
        symbol(
          locale,
          SymbolKind.Namespace,
          ["messages", locale],
          undefined,
          Object.keys(objectAt(catalog))
            .map((key) => symbol(key, SymbolKind.String, ["messages", locale, key]))
            .filter((entry): entry is DocumentSymbol => entry !== undefined),
        ),
      ),
    ),
    group(
      "tests",
      SymbolKind.Namespace,
      listAt(root.tests).map((test, index) =>
        symbol(stringAt(objectAt(test).name), SymbolKind.Event, ["tests", String(index), "name"]),
      ),
    ),
  ];
  return symbols.filter((entry): entry is DocumentSymbol => entry !== undefined);
}

/** Rulesets and rules of some read sources whose name holds the query (any case), for the editor's symbol search. */
export function workspaceSymbols(
  sources: readonly { file: string; document: JsonValue | undefined; locate?: SourceLocator }[],
  query: string,
  textOf: (file: string) => string | undefined,
): SymbolInformation[] {
  const wanted = query.toLowerCase();
  const found: SymbolInformation[] = [];
  for (const source of sources) {
    if (source.locate === undefined) continue;
    const root = objectAt(source.document);
    const rulesetId = stringAt(objectAt(root.metadata).id);
    const add = (name: string, kind: SymbolKind, path: string[], container?: string): void => {
      if (!name.toLowerCase().includes(wanted)) return;
      const position = source.locate!(path, "value");
      if (position === undefined) return;
      found.push({
        name,
        kind,
        location: { uri: uriOfPath(source.file), range: rangeAt(textOf(source.file), position.line, position.column) },
        ...(container === undefined ? {} : { containerName: container }),
      });
    };
    if (rulesetId !== "") add(rulesetId, SymbolKind.Module, ["metadata", "id"]);
    listAt(root.rules).forEach((rule, index) =>
      add(stringAt(objectAt(rule).id), SymbolKind.Function, ["rules", String(index), "id"], rulesetId),
    );
  }
  return found;
}
