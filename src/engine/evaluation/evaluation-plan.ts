import { isJsonObject } from "../value/json-access.ts";
import type { Channel } from "../bundle/channel.ts";
import { customOperatorsFrom, type CustomOperators } from "../expression/custom-operators.ts";
import { FunctionTable } from "../expression/function-table.ts";
import { prepareExpression, type PrepareContext } from "../expression/prepare-expression.ts";
import type { NodeTracer } from "../expression/node-tracer.ts";
import { declaredNames, type DeclaredNames } from "../names/declared-names.ts";
import type { EmbeddedSchema } from "../schema/entity-schema.ts";
import { embeddedSchemas, ENTITY_SCHEMAS_MEMBER } from "../schema/manifest-schemas.ts";
import type { ValueReader } from "../expression/generated-path-reader.ts";
import { valueReader } from "../expression/variable-reference.ts";
import type { JsonObject, JsonValue } from "../value/json-value.ts";
import type { Scope } from "../expression/scope.ts";
import { ApplicabilityIndex, INDEX_THRESHOLDS, type IndexThresholds } from "./applicability-index.ts";
import { MessageCatalogs } from "./message-catalog.ts";
import { RuleConditions } from "./rule-conditions.ts";
import { enforcedOn, runsOnTrigger } from "./rule-selection.ts";
import { RulesNotApplying } from "./rules-not-applying.ts";
import type { WorkingData } from "./working-data.ts";
import {
  byPriority,
  pointerPath,
  prepareRule,
  type ActionRule,
  type ComputeRule,
  type PreparedRule,
  type StateRule,
  type ValidationRule,
} from "./prepared-rule.ts";

/** The rules of each kind that can take part, in evaluation order. */
export interface RuleSelection {
  readonly compute: readonly ComputeRule[];
  readonly state: readonly StateRule[];
  readonly validation: readonly ValidationRule[];
  readonly action: readonly ActionRule[];
}

/** A rule of a kind no runtime runs (an `x-*` extension kind): never selected, listed by explanations. */
export interface OtherKindRule {
  readonly id: string;
  readonly kind: string;
  readonly position: number;
}

/** The manifest's rules that `prepareRule` left out, as far as they name an id and a kind. */
function otherKindRules(
  entries: readonly JsonValue[],
  prepared: readonly (PreparedRule | undefined)[],
): OtherKindRule[] {
  const others: OtherKindRule[] = [];
  for (let position = 0; position < entries.length; position++) {
    const entry = entries[position]!;
    if (
      prepared[position] !== undefined ||
      !isJsonObject(entry) ||
      typeof entry.id !== "string" ||
      typeof entry.kind !== "string"
    )
      continue;
    others.push({ id: entry.id, kind: entry.kind, position });
  }
  return others;
}

/** A field bound to a semantic type: its pointer and a reader of that location in the data. */
export interface BoundField {
  readonly pointer: string;
  readonly read: ValueReader;
}

const EMPTY_SELECTION: RuleSelection = { compute: [], state: [], validation: [], action: [] };

/**
 * A manifest read once for evaluation (specification sections 7 and 8): rules prepared and
 * grouped by kind in evaluation order, catalogs indexed, type bindings resolved. The rules a
 * request can select are worked out once per entity and operation the manifest names.
 */
export class EvaluationPlan {
  readonly id: string;
  readonly version: string;
  readonly checksum: string;
  readonly channel: Channel;
  readonly conflictPolicy: string;
  readonly params: JsonObject;
  readonly messages: MessageCatalogs;
  private readonly rules: RuleSelection;
  /** Every rule of a known kind, in manifest order (explanations list them so). */
  readonly manifestOrder: readonly PreparedRule[];
  /** The entities that bind field types or have a schema, which are declared even where no rule names them. */
  readonly declaredEntities: readonly string[];
  private names: DeclaredNames | undefined;
  /** The entities' schemas, when the manifest carries them (`x-entitySchemas`, a bundle compiled by rule-server). */
  readonly entitySchemas: Readonly<Record<string, EmbeddedSchema>>;
  /** How many entries the manifest's `rules` has, rules of unknown kinds included (PreparedRule.position is below it). */
  readonly manifestRuleCount: number;
  /** The rules of kinds this engine does not run (`x-*` extension kinds), in manifest order: explanations list them too. */
  readonly otherKindRules: readonly OtherKindRule[];
  private readonly knownEntities = new Set<string>();
  private readonly knownOperations = new Set<string>();
  private readonly knownTriggers = new Set<string>();
  /** Selections by entity, then operation: looked up for every request without building a key. */
  private readonly selections = new Map<string, Map<string, RuleSelection>>();
  /** The rules of a selection that run on a trigger, by trigger (client requests name one). */
  private readonly onTrigger = new Map<RuleSelection, Map<string, RuleSelection>>();
  /** Undefined when the plan evaluates every selected rule's condition (traced plans, and on request). */
  private readonly conditions: RuleConditions | undefined;
  private readonly indexThresholds: IndexThresholds;
  /** How its rules were prepared (functions, operators, code generation), untraced: for expressions read beside them (plans). */
  readonly prepareContext: PrepareContext;
  private readonly indexes = new Map<RuleSelection, ApplicabilityIndex | undefined>();
  /** entity → type name → bound fields in ascending order of their pointers. */
  private readonly typeBindings = new Map<string, Map<string, readonly BoundField[]>>();

  /**
   * `codeGeneration` lets the plan compile its rules to JavaScript functions; a host whose
   * platform forbids `eval` passes false and gets the same results from closures. `ruleIndex` says
   * when evaluations pass over rules an index shows cannot apply (applicability-index.ts); false
   * evaluates every selected rule's `when`, with the same results (tests compare the two, and
   * index every rule they can with thresholds of 1).
   */
  constructor(
    manifest: JsonObject,
    channel: Channel,
    operators: CustomOperators = customOperatorsFrom(undefined),
    codeGeneration = true,
    trace?: NodeTracer,
    ruleIndex: IndexThresholds | false = INDEX_THRESHOLDS,
  ) {
    this.id = String(manifest.id);
    this.version = String(manifest.version);
    this.checksum = String(manifest.checksum);
    this.channel = channel;
    this.conflictPolicy = typeof manifest.conflictPolicy === "string" ? manifest.conflictPolicy : "fail";
    this.params = isJsonObject(manifest.params) ? manifest.params : {};
    this.messages = new MessageCatalogs(
      manifest.messages,
      typeof manifest.defaultLocale === "string" ? manifest.defaultLocale : "en",
      codeGeneration,
    );
    const untraced: PrepareContext = {
      functions: new FunctionTable(manifest.functions ?? null),
      operators,
      codeGeneration,
    };
    this.prepareContext = untraced;
    // A traced plan records every node's value; only its rules' own expressions are traced, as
    // closures (readers and stores may still be generated).
    const context: PrepareContext = trace === undefined ? untraced : { ...untraced, trace };
    const entries = Array.isArray(manifest.rules) ? manifest.rules : [];
    const all = entries.map((rule, position) => prepareRule(rule, context, position));
    const prepared = all.filter((rule) => rule !== undefined);
    this.otherKindRules = otherKindRules(entries, all);
    this.manifestOrder = [...prepared];
    this.manifestRuleCount = Array.isArray(manifest.rules) ? manifest.rules.length : 0;
    this.entitySchemas = embeddedSchemas(manifest[ENTITY_SCHEMAS_MEMBER]);
    this.declaredEntities = [
      ...new Set([
        ...(isJsonObject(manifest.fieldTypes) ? Object.keys(manifest.fieldTypes) : []),
        ...Object.keys(this.entitySchemas),
      ]),
    ];
    prepared.sort(byPriority);
    for (const rule of prepared) {
      if (rule.entity !== undefined) this.knownEntities.add(rule.entity);
      for (const operation of rule.operations) this.knownOperations.add(operation);
      for (const trigger of rule.triggers ?? []) this.knownTriggers.add(trigger);
    }
    // A traced plan is watched by an observer, for which evaluations evaluate every rule anyway.
    this.conditions = ruleIndex !== false && trace === undefined ? new RuleConditions(untraced) : undefined;
    this.indexThresholds = ruleIndex === false ? INDEX_THRESHOLDS : ruleIndex;
    this.rules = groupByKind(prepared);
    // Every function body once, now, so that evaluations find them prepared (patterns compiled too).
    for (const fn of untraced.functions.entries()) fn.body ??= prepareExpression(fn.bodyExpression, untraced);
    this.indexTypeBindings(manifest.fieldTypes, codeGeneration);
  }

  /** The entities the manifest declares and the operations its rules name: for explanations and request checks, read on first use. */
  get declaredNames(): DeclaredNames {
    return (this.names ??= declaredNames(this.manifestOrder, this.declaredEntities));
  }

  /**
   * The rules that can take part for an entity, an operation and, when the request names one on a
   * client manifest, a trigger, in evaluation order.
   */
  select(entity: string, operation: string, trigger: string | null = null): RuleSelection {
    const selection = this.selectForOperation(entity, operation);
    if (trigger === null) return selection;
    // A trigger no rule names selects nothing: only triggers of the manifest are kept.
    if (!this.knownTriggers.has(trigger)) return EMPTY_SELECTION;
    let byTrigger = this.onTrigger.get(selection);
    if (!byTrigger) this.onTrigger.set(selection, (byTrigger = new Map()));
    let narrowed = byTrigger.get(trigger);
    if (!narrowed) {
      const fits = (rule: PreparedRule): boolean => runsOnTrigger(rule, trigger);
      narrowed = {
        compute: selection.compute.filter(fits),
        state: selection.state.filter(fits),
        validation: selection.validation.filter(fits),
        action: selection.action.filter(fits),
      };
      byTrigger.set(trigger, narrowed);
    }
    return narrowed;
  }

  /**
   * The rules of a selection `select` gave (or of any part of it: a request's view narrows it)
   * that one request's evaluation may pass over, marked as it goes; undefined when the plan does
   * not index its rules or the selection has nothing to index. A selection's index is built on its
   * first request.
   */
  rulesNotApplying(
    selection: RuleSelection,
    entity: string,
    scope: Scope,
    working: WorkingData,
  ): RulesNotApplying | undefined {
    if (this.conditions === undefined) return undefined;
    let index = this.indexes.get(selection);
    if (index === undefined && !this.indexes.has(selection))
      this.indexes.set(selection, (index = ApplicabilityIndex.of(selection, this.conditions, this.indexThresholds)));
    if (index === undefined) return undefined;
    return new RulesNotApplying(index, this.manifestRuleCount, scope, working, (typeName) =>
      this.fieldsOfType(entity, typeName),
    );
  }

  private selectForOperation(entity: string, operation: string): RuleSelection {
    if (!this.knownOperations.has(operation)) return EMPTY_SELECTION;
    // Entities no rule names share one selection: only rules without an entity can match them.
    const entityKey = this.knownEntities.has(entity) ? entity : "";
    let byOperation = this.selections.get(entityKey);
    if (!byOperation) this.selections.set(entityKey, (byOperation = new Map()));
    let selection = byOperation.get(operation);
    if (!selection) {
      const fits = (rule: PreparedRule): boolean =>
        rule.enabled &&
        (rule.entity === undefined || rule.entity === entity) &&
        rule.operations.has(operation) &&
        enforcedOn(rule, this.channel);
      selection = {
        compute: this.rules.compute.filter(fits),
        state: this.rules.state.filter(fits),
        validation: this.rules.validation.filter(fits),
        action: this.rules.action.filter(fits),
      };
      byOperation.set(operation, selection);
    }
    return selection;
  }

  /** The fields of an entity bound to a type, in ascending order of their pointers. */
  fieldsOfType(entity: string, typeName: JsonValue | undefined): readonly BoundField[] {
    if (typeof typeName !== "string") return [];
    return this.typeBindings.get(entity)?.get(typeName) ?? [];
  }

  private indexTypeBindings(fieldTypes: JsonValue | undefined, codeGeneration: boolean): void {
    if (!isJsonObject(fieldTypes)) return;
    for (const [entity, bindings] of Object.entries(fieldTypes)) {
      if (!isJsonObject(bindings)) continue;
      const byType = new Map<string, BoundField[]>();
      for (const [pointer, typeName] of Object.entries(bindings)) {
        if (typeof typeName !== "string") continue;
        const fields = byType.get(typeName) ?? [];
        fields.push({ pointer, read: valueReader(pointerPath(pointer), codeGeneration) });
        byType.set(typeName, fields);
      }
      for (const fields of byType.values())
        fields.sort((a, b) => (a.pointer < b.pointer ? -1 : a.pointer > b.pointer ? 1 : 0));
      this.typeBindings.set(entity, byType);
    }
  }
}

function groupByKind(rules: readonly PreparedRule[]): RuleSelection {
  return {
    compute: rules.filter((rule): rule is ComputeRule => rule.kind === "compute"),
    state: rules.filter((rule): rule is StateRule => rule.kind === "state"),
    validation: rules.filter((rule): rule is ValidationRule => rule.kind === "validation"),
    action: rules.filter((rule): rule is ActionRule => rule.kind === "action"),
  };
}
