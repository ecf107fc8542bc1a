import { sharedGeneratedFunction } from "../expression/generated-code.ts";
import type { JsonObject } from "../value/json-value.ts";
import { renderText } from "../value/rendered-text.ts";

/** A message template's text and placeholders, in order. */
export type TemplatePart = string | { readonly arg: string };

export type MessageFiller = (args: JsonObject) => string;

/**
 * A template filled by code of its own: the args of every finding of every rule through one loop
 * are reads the JIT cannot cache; a template's own reads of its own names are. Same text as the
 * loop in message-catalog.ts: a placeholder without an arg stays as written. Undefined when the
 * platform refuses generated code.
 */
export function generatedFiller(parts: readonly TemplatePart[]): MessageFiller | undefined {
  return sharedGeneratedFunction<MessageFiller>(
    JSON.stringify(["message", ...parts]),
    ["hasOwn", "renderText"],
    () => fillerSource(parts),
    [Object.hasOwn, renderText],
  );
}

function fillerSource(parts: readonly TemplatePart[]): string {
  const pieces = parts.map((part) => {
    if (typeof part === "string") return JSON.stringify(part);
    const name = JSON.stringify(part.arg);
    return `(hasOwn(a, ${name}) ? renderText(a[${name}]) : ${JSON.stringify(`{${part.arg}}`)})`;
  });
  return `return (a) => "" + ${pieces.length > 0 ? pieces.join(" + ") : '""'};`;
}
