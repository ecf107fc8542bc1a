import { isMap, isScalar, isSeq, type Document, type LineCounter, type Node } from "yaml";
import type { MemberPart, SourceLocator } from "./source-position.ts";

/** Finds members and items in a parsed YAML document by the ranges its nodes keep. */
export function yamlLocator(document: Document.Parsed, lineCounter: LineCounter): SourceLocator {
  return (path, part) => {
    const offset = yamlOffset(document, path, part);
    if (offset === undefined) return undefined;
    const position = lineCounter.linePos(offset);
    return { line: position.line, column: position.col };
  };
}

function yamlOffset(document: Document.Parsed, path: readonly string[], part: MemberPart): number | undefined {
  let node = document.contents as Node | null;
  let offset = node?.range?.[0];
  let keyOffset: number | undefined;
  for (const segment of path) {
    let next: Node | null | undefined;
    keyOffset = undefined;
    if (isMap(node)) {
      const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === segment);
      if (pair === undefined) return offset;
      keyOffset = (pair.key as Node).range?.[0];
      next = pair.value as Node | null;
    } else if (isSeq(node)) next = node.items[Number(segment)] as Node | undefined;
    else return offset;
    if (next === undefined) return offset;
    node = next;
    // A member written with no value (`key:`) has no node of its own; its key is its place.
    offset = next?.range?.[0] ?? keyOffset;
  }
  return part === "key" && keyOffset !== undefined ? keyOffset : offset;
}
