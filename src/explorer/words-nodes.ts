import type { Words } from "../engine/explanation/explanation-words.ts";
import { h, type Child } from "./dom.ts";

/** An explanation's words as the page shows them: the names they quote as code. */
export function wordsNodes(words: Words): Child[] {
  return words.map((part) => (typeof part === "string" ? part : h("code", {}, part.code)));
}
