import { objectAt } from "../../engine/value/json-access.ts";
import type { JsonObject } from "../../engine/value/json-value.ts";
import { canonicalJson } from "../../engine/value/canonical-json.ts";
import { overlaps, type ReadPath, type RuleReads } from "./masked-reads.ts";

/** Why a rule that reads a masked member cannot keep its recorded outcome. */
export type MaskedRefusal = "rule-changed" | "input-changed" | "recorded-rules-unknown";

/** Members of a rule that say nothing about what it decides. */
const WORDING_ONLY = new Set(["origin", "title", "description"]);

/**
 * How the rules of a manifest differ from those of the manifest that made a record, as far as
 * what they decide: a rule changed when its entry (but for its wording and origin), a param or a
 * function it reads, or the fields bound to its type changed, or when it is new. Worked out once
 * per pair of manifests, entity and operation.
 */
export class RuleChanges {
  private readonly changed = new Set<string>();
  /** The fields assigned by compute rules that changed, were added or were removed. */
  private readonly changedAssignments: ReadPath[] = [];

  constructor(
    recorded: readonly RuleReads[],
    current: readonly RuleReads[],
    recordedManifest: JsonObject,
    currentManifest: JsonObject,
    entity: string,
  ) {
    const before = new Map(recorded.map((rule) => [rule.id, rule]));
    const after = new Set(current.map((rule) => rule.id));
    // A member one manifest lacks compares as null: absent in both is the same.
    const sameMember = (member: string, name: string): boolean =>
      canonicalJson(objectAt(recordedManifest[member])[name] ?? null) ===
      canonicalJson(objectAt(currentManifest[member])[name] ?? null);
    const sameBindings =
      canonicalJson(objectAt(recordedManifest.fieldTypes)[entity] ?? null) ===
      canonicalJson(objectAt(currentManifest.fieldTypes)[entity] ?? null);
    for (const rule of current) {
      const old = before.get(rule.id);
      const same =
        old !== undefined &&
        decisive(old.entry) === decisive(rule.entry) &&
        [...rule.params].every((name) => sameMember("params", name)) &&
        [...rule.functions].every((name) => sameMember("functions", name)) &&
        (typeof objectAt(rule.entry.target).type !== "string" || sameBindings);
      if (same) continue;
      this.changed.add(rule.id);
      this.changedAssignments.push(...rule.assigns, ...(old?.assigns ?? []));
    }
    for (const rule of recorded) if (!after.has(rule.id)) this.changedAssignments.push(...rule.assigns);
  }

  /** Why `rule` cannot keep its recorded outcome, or undefined when it can. */
  refusal(rule: RuleReads): MaskedRefusal | undefined {
    if (this.changed.has(rule.id)) return "rule-changed";
    if (rule.reads.some((path) => this.changedAssignments.some((assigned) => overlaps(path, assigned))))
      return "input-changed";
    return undefined;
  }
}

/** A rule entry without the members that only word it. */
function decisive(entry: JsonObject): string {
  return canonicalJson(Object.fromEntries(Object.entries(entry).filter(([member]) => !WORDING_ONLY.has(member))));
}
