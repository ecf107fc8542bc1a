import { code, listed, type Words } from "./explanation-words.ts";
import type { RuleExplanation, RuleStatus } from "./explanation.ts";
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
export function ruleWords(entry: RuleExplanation, context: ExplanationContext = {}): Words {
  const words = statusWords(entry, context);
  return entry.field === undefined ? words : [...words, " (shown for ", code(entry.field), ")"];
}

function statusWords(entry: RuleExplanation, context: ExplanationContext): Words {
  switch (entry.status) {
    case "not-selected":
      return notSelectedWords(entry, context);
    case "when-false":
      return ["its condition (when) is false, so it did not run"];
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

/**
 * Passed: ran and produced nothing (DECISIONS.md, round 3), said for what the kind would produce.
 * A rule run per item or per field of a type held for every one, however many there were (a
 * `rules` explanation does not tell none apart).
 */
function passedWords(entry: RuleExplanation, context: ExplanationContext): Words {
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
function firedWords(entry: RuleExplanation, context: ExplanationContext): Words {
  const rule = context.rules?.get(entry.rule);
  const fields = (type: "value" | "state", declared: readonly { readonly field: string }[] | undefined): string[] => {
    const effects = context.result?.effects.filter((effect) => effect.rule === entry.rule && effect.type === type);
    return effects !== undefined && effects.length > 0
      ? [...new Set(effects.map((effect) => effect.field))]
      : (declared?.map((declaration) => declaration.field) ?? []);
  };
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
