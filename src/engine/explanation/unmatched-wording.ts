import { code, named, type Words } from "./explanation-words.ts";
import type { Explanation, UnmatchedName } from "./explanation.ts";
import type { ExplanationContext } from "./wording-context.ts";

/**
 * A request's entity or operation that no rule names, a sentence each, with the closest declared
 * name when there is one. An operation is said of the request's entity when that one is known.
 */
export function unmatchedWords(
  unmatched: NonNullable<Explanation["unmatched"]>,
  context: ExplanationContext = {},
): Words[] {
  const said: Words[] = [];
  if (unmatched.entity !== undefined)
    said.push([
      "No rule of this ruleset targets the entity ",
      code(unmatched.entity.given),
      ...guess(unmatched.entity),
    ]);
  if (unmatched.operation !== undefined) {
    const of: Words =
      unmatched.entity !== undefined
        ? ["this ruleset"]
        : context.request?.entity === undefined
          ? ["the request's entity"]
          : [named(context.request.entity)];
    said.push([
      "No rule of ",
      ...of,
      " runs on the operation ",
      code(unmatched.operation.given),
      ...guess(unmatched.operation),
    ]);
  }
  return said;
}

function guess(name: UnmatchedName): Words {
  return name.didYouMean === undefined ? ["."] : [": did you mean ", code(name.didYouMean), "?"];
}
