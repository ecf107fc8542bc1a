import type { LoadedRuleset } from "../../engine/bundle/loaded-ruleset.ts";
import type { Channel } from "../../engine/bundle/channel.ts";
import type { CustomOperators } from "../../engine/expression/custom-operators.ts";
import { listAt, objectAt, stringAt } from "../../engine/value/json-access.ts";
import type { JsonObject, JsonValue } from "../../engine/value/json-value.ts";
import { maskedReads, ruleReads, type MaskedRead, type RuleReads } from "./masked-reads.ts";
import { RecordedOutcomeRulesets, recordedOutcome, type RecordedOutcome } from "./recorded-outcomes.ts";
import { RuleChanges, type MaskedRefusal } from "./rule-changes.ts";

/** A rule that reads a masked member and cannot keep its recorded outcome, and why. */
export interface MaskedRuleRefusal extends MaskedRead {
  readonly because: MaskedRefusal | "outcome-not-recorded";
}

/**
 * How a record with masked members is replayed: the ruleset to evaluate it with, in which the rules
 * that read a masked member do what the record says they did, and those rules; or the rules that
 * read one and cannot keep their outcome.
 */
export type MaskedReplayPlan =
  | {
      readonly ruleset: LoadedRuleset;
      readonly kept: ReadonlySet<string>;
      readonly unknownActions: readonly MaskedRead[];
    }
  | { readonly refused: readonly MaskedRuleRefusal[] };

/** What one manifest, the manifest that made the records, an entity, an operation and a mask make of the rules. */
interface MaskedAnalysis {
  readonly reading: readonly { readonly read: MaskedRead; readonly rule: RuleReads }[];
  readonly refused: readonly MaskedRuleRefusal[];
}

/**
 * A masked member is never evaluated as data: the replay saw `"***"`, not the value. A rule that
 * reads one keeps the outcome the record gives it, when it did not change and nothing it reads
 * was changed by a rule that did; otherwise the record cannot be replayed, and the rule and the
 * pointer are named. Whether a rule changed is known against the rules that made the record: the
 * rules replayed against, when the record's checksum is theirs, or those given as recorded.
 */
export class MaskedReplay {
  private readonly outcomes: RecordedOutcomeRulesets;
  private readonly analyses = new Map<string, MaskedAnalysis>();

  constructor(
    operators: CustomOperators,
    /** The rulesets that made the records, by checksum. */
    private readonly recorded: ReadonlyMap<string, LoadedRuleset>,
  ) {
    this.outcomes = new RecordedOutcomeRulesets(operators);
  }

  plan(record: JsonObject, ruleset: LoadedRuleset, channel: Channel, masked: readonly string[]): MaskedReplayPlan {
    const request = objectAt(record.request);
    const analysis = this.analysis(
      ruleset,
      stringAt(record.checksum),
      channel,
      stringAt(request.entity),
      stringAt(request.operation),
      masked,
    );
    if (analysis.refused.length > 0) return { refused: analysis.refused };
    const outcomes = new Map<string, RecordedOutcome>();
    const unknownActions: MaskedRead[] = [];
    for (const { read, rule } of analysis.reading) {
      const outcome = recordedOutcome(record, rule.entry);
      if (outcome === undefined) unknownActions.push(read);
      outcomes.set(rule.id, outcome ?? "quiet");
    }
    return {
      ruleset: this.outcomes.with(ruleset.manifest(channel), outcomes),
      kept: new Set(outcomes.keys()),
      unknownActions,
    };
  }

  private analysis(
    ruleset: LoadedRuleset,
    checksum: string,
    channel: Channel,
    entity: string,
    operation: string,
    masked: readonly string[],
  ): MaskedAnalysis {
    const key = [ruleset.checksum, checksum, channel, entity, operation, ...masked].join("\u0000");
    let analysis = this.analyses.get(key);
    if (analysis === undefined) {
      const manifest = ruleset.manifest(channel);
      const reads = ruleReads(manifest, entity, operation);
      const byId = new Map(reads.map((rule) => [rule.id, rule]));
      const reading = [...maskedReads(reads, masked).values()].map((read) => ({ read, rule: byId.get(read.rule)! }));
      const changes = this.changesSince(checksum, ruleset, manifest, reads, channel, entity, operation);
      const refused: MaskedRuleRefusal[] = [];
      for (const { read, rule } of reading) {
        const because = changes === undefined ? "recorded-rules-unknown" : changes.refusal(rule);
        if (because !== undefined) refused.push({ ...read, because });
      }
      analysis = { reading, refused };
      this.analyses.set(key, analysis);
    }
    return analysis;
  }

  /** How the rules changed since the record was made; undefined when the rules that made it are unknown. */
  private changesSince(
    checksum: string,
    ruleset: LoadedRuleset,
    manifest: JsonObject,
    reads: readonly RuleReads[],
    channel: Channel,
    entity: string,
    operation: string,
  ): RuleChanges | undefined {
    const made = checksum === ruleset.checksum ? ruleset : this.recorded.get(checksum);
    if (made === undefined || !made.channels.includes(channel)) return undefined;
    const madeManifest = made.manifest(channel);
    return new RuleChanges(ruleReads(madeManifest, entity, operation), reads, madeManifest, manifest, entity);
  }
}

/** The findings and effects of the kept rules as the record has them; the others as evaluated. */
export function withRecordedOutcomes(result: JsonObject, record: JsonObject, kept: ReadonlySet<string>): JsonObject {
  const ofRules = (entries: JsonValue | undefined, keptOnes: boolean): JsonObject[] =>
    listAt(entries)
      .map(objectAt)
      .filter((entry) => kept.has(stringAt(entry.rule)) === keptOnes);
  return {
    ...result,
    findings: [...ofRules(result.findings, false), ...ofRules(record.findings, true)],
    effects: [...ofRules(result.effects, false), ...ofRules(record.effects, true)],
  };
}
