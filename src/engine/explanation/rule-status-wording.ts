import { readableExpressionText } from "../expression-text/print-expression-text.ts";
import { code, listed, type Words } from "./explanation-words.ts";
import type { RuleStatus, WordedRule } from "./explanation.ts";
import { listPath, noItemWords } from "./no-item-wording.ts";
import { notSelectedWords } from "./not-selected-wording.ts";
import type { ExplanationContext } from "./wording-context.ts";

const STATUS_LABELS: Readonly<Record<RuleStatus, string>> = {
  "not-selected": "not selected",
  "when-false": "when false",
  passed: "passed",
  fired: "fired",
  error: "error",
};

/** A rule's status in a word or two: the command line's first column, the explorer's badge, the counts. */
export function statusLabel(status: RuleStatus): string {
  return STATUS_LABELS[status] ?? String(status);
}

/**
 * Why a rule has its status, in a sentence without its subject (the rule is named beside it): not
 * selected and why, its condition false, what passing means for it, what it produced, the error it
 * failed closed with; and for a rule run per item or field, which one its trees show.
 */
export function ruleWords(entry: WordedRule, context: ExplanationContext = {}): Words {
  const words = statusWords(entry, context);
  return entry.field === undefined ? words : [...words, ...shownForWords(entry.field)];
}

/** After the words of a rule run per item or field: which one its trees show. */
export function shownForWords(field: string): Words {
  return [" (shown for ", code(field), ")"];
}

function statusWords(entry: WordedRule, context: ExplanationContext): Words {
  switch (entry.status) {
    case "not-selected":
      return notSelectedWords(entry, context);
    case "when-false":
      return whenFalseWords(entry, context);
    case "passed":
      return noItemWords(entry, context) ?? passedWords(entry, context);
    case "fired":
      return firedWords(entry, context);
    case "error":
      return [entry.message ?? "it could not be evaluated", " (the rule fails closed)"];
    default:
      return [code(String(entry.status))];
  }
}

/** When false: the condition as text, from its traced tree (a full explanation) or the rule. */
function whenFalseWords(entry: WordedRule, context: ExplanationContext): Words {
  const rule = context.rules?.get(entry.rule);
  const condition =
    entry.when?.text ??
    (rule !== undefined && Object.hasOwn(rule, "when") ? readableExpressionText(rule.when) : undefined);
  return condition === undefined
    ? ["its condition (when) is false, so it did not run"]
    : ["its condition, ", code(condition), ", is false, so it did not run"];
}

/**
 * Passed: ran and produced nothing (DECISIONS.md, round 3), said for what the kind would produce.
 * A rule run per item or per field of a type held for every one, however many there were (a
 * `rules` explanation does not tell none apart).
 */
function passedWords(entry: WordedRule, context: ExplanationContext): Words {
  switch (entry.kind) {
    case "validation": {
      const rule = context.rules?.get(entry.rule);
      if (rule?.forEach !== undefined) return ["its assertion holds for every item of ", code(listPath(rule.forEach))];
      if (rule?.target.type !== undefined)
        return ["its assertion holds for every field of the type ", code(rule.target.type)];
      return ["its assertion holds"];
    }
    case "compute":
      return ["it computed nothing: the field already has a value"];
    default:
      return ["it ran and produced nothing"];
  }
}

/** Fired: what it produced, named from the result where the context has it, else from the rule. */
function firedWords(entry: WordedRule, context: ExplanationContext): Words {
  const rule = context.rules?.get(entry.rule);
  const fields = (type: "value" | "state", declared: readonly { readonly field: string }[] | undefined): string[] =>
    fieldsWrittenBy(entry.rule, type, context) ?? declared?.map((declaration) => declaration.field) ?? [];
  switch (entry.kind) {
    case "validation": {
      const findingCode =
        context.result?.findings.find((finding) => finding.rule === entry.rule)?.code ?? rule?.finding?.code;
      return findingCode === undefined
        ? ["its assertion failed, so it raised a finding"]
        : ["its assertion failed, so it raised finding ", code(findingCode)];
    }
    case "compute": {
      const computed = fields("value", rule?.assign);
      return computed.length === 0 ? ["it computed a value"] : ["it computed ", ...listed(computed, " and ")];
    }
    case "state": {
      const set = fields("state", rule?.effects);
      return set.length === 0 ? ["it set a state"] : ["it set the state of ", ...listed(set, " and ")];
    }
    case "action":
      return ["it sent its commands"];
    default:
      return ["it produced a finding, an effect or a command"];
  }
}

/** The fields a rule's effects of `type` wrote in the context's result, each once; undefined when none (or no result). */
export function fieldsWrittenBy(
  rule: string,
  type: "value" | "state",
  context: ExplanationContext,
): string[] | undefined {
  // Said for every compute and state rule that fired in every explanation: one pass, no intermediate lists.
  let fields: string[] | undefined;
  for (const effect of context.result?.effects ?? [])
    if (effect.rule === rule && effect.type === type && !fields?.includes(effect.field))
      (fields ??= []).push(effect.field);
  return fields;
}
