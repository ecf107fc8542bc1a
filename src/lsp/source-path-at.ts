import { isMap, isPair, isScalar, isSeq, parseDocument, type Document, type Node } from "yaml";

/** What sits at an offset of a YAML or JSON source: the path to it and whether it is a key or a value. */
export interface SourcePathAt {
  /** Member names and item indexes from the document's root; for a key, its member's name is last. */
  readonly path: readonly string[];
  readonly part: "key" | "value";
  /** The scalar's value, when the offset is on a scalar. */
  readonly scalar?: string;
  /** Where that scalar starts in the text (its quote, block indicator or first character): an expression's text is read from it. */
  readonly scalarStart?: number;
  /** Found inside an expression written as text (expression-text-at.ts): the path is the node's in the read tree. */
  readonly inText?: boolean;
}

/**
 * Finds the node at an offset by the ranges the YAML parser keeps (JSON is read the same way:
 * JSON is YAML). A document that does not parse as a whole still has nodes for its parts.
 */
export function sourcePathAt(text: string, offset: number): SourcePathAt | undefined {
  const document = parsed(text);
  let node = document.contents as Node | null;
  const path: string[] = [];
  for (let depth = 0; node !== null && depth < 200; depth++) {
    if (isMap(node)) {
      let next: Node | null = null;
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        const key = pair.key as Node | null;
        const name = isScalar(key) ? String(key.value) : undefined;
        const keyRange = key?.range ?? undefined;
        if (keyRange !== undefined && offset >= keyRange[0] && offset <= keyRange[1] && name !== undefined) {
          return { path: [...path, name], part: "key", scalar: name };
        }
        const value = pair.value as Node | null;
        const valueRange = value?.range ?? undefined;
        if (valueRange !== undefined && offset >= valueRange[0] && offset <= valueRange[1] && name !== undefined) {
          path.push(name);
          next = value;
          break;
        }
      }
      if (next === null) return { path, part: "value" };
      node = next;
    } else if (isSeq(node)) {
      const index = node.items.findIndex((item) => {
        const range = (item as Node | null)?.range ?? undefined;
        return range !== undefined && offset >= range[0] && offset <= range[1];
      });
      if (index === -1) return { path, part: "value" };
      path.push(String(index));
      node = node.items[index] as Node;
    } else if (isScalar(node)) {
      const scalar = node.value === null || node.value === undefined ? "" : String(node.value);
      return { path, part: "value", scalar, ...(node.range ? { scalarStart: node.range[0] } : {}) };
    } else return { path, part: "value" };
  }
  return { path, part: "value" };
}

/** The texts parsed last: a completion looks up its text twice, and hover, definition and references follow one another on one text. */
const recent: { text: string; document: Document }[] = [];
const RECENT_TEXTS = 2;

/** The parse of a text, reused while it is among the last ones (a large ruleset takes a parse of a tenth of a second or more). */
function parsed(text: string): Document {
  const known = recent.find((entry) => entry.text === text);
  if (known !== undefined) return known.document;
  const document = parseDocument(text, { keepSourceTokens: false, strict: false, uniqueKeys: false });
  recent.unshift({ text, document });
  recent.length = Math.min(recent.length, RECENT_TEXTS);
  return document;
}
