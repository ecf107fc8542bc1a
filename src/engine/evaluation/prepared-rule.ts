import { compare } from "../number/arithmetic.ts";
import type { Node } from "../expression/prepared-node.ts";
import { prepareExpression, type PrepareContext } from "../expression/prepare-expression.ts";
import { memberSetter, type MemberSetter } from "../expression/generated-member-setter.ts";
import type { ValueReader } from "../expression/generated-path-reader.ts";
import { preparePath, valueReader, type PathSegment } from "../expression/variable-reference.ts";
import type { JsonObject, JsonValue } from "../value/json-value.ts";
import { isJsonObject, listAt, objectAt, stringAt, truthy } from "../value/json-access.ts";
import { isNumberValue } from "../value/value-kind.ts";
import { VIEW_KEYS, type Place } from "./request-shape.ts";
import type { Severity } from "./evaluation-result.ts";

/**
 * One rule of a manifest read once for evaluation (specification sections 3 and 8): what selects
 * it, its expressions prepared, everything its findings, effects and commands need. Nothing is
 * read from the manifest's JSON while a request is evaluated.
 */

interface RuleBase {
  readonly id: string;
  /** The rule's index in the manifest's `rules`, by which explanations keep per-rule state in arrays. */
  readonly position: number;
  /** The rule as the manifest holds it, which explanations quote. */
  readonly source: JsonObject;
  readonly origin: string;
  readonly priority: JsonValue;
  readonly enabled: boolean;
  /** The entity the rule targets; undefined for a rule that targets only a type (any entity). */
  readonly entity: string | undefined;
  readonly operations: ReadonlySet<string>;
  readonly enforcement: string;
  /** Client moments; undefined when `triggers` is not a list (then no request trigger matches). */
  readonly triggers: ReadonlySet<string> | undefined;
  /** The places the target names, as [key, value] pairs, for matching a request's view. */
  readonly places: readonly (readonly [string, JsonValue])[];
  readonly when: Node | undefined;
}

export interface ComputeRule extends RuleBase {
  readonly kind: "compute";
  readonly assignments: readonly Assignment[];
}

/** One `assign` entry: where it writes, how that place is read and stored into, and what it writes. */
export interface Assignment {
  readonly field: string;
  readonly path: readonly PathSegment[];
  /** The store of each segment of `path` into its parent. */
  readonly stores: readonly MemberSetter[];
  readonly read: ValueReader;
  readonly always: boolean;
  readonly value: Node;
}

export interface StateRule extends RuleBase {
  readonly kind: "state";
  readonly effects: readonly StateEffect[];
}

/** One `effects` entry of a state rule, with the keys evaluation tracks its writes by made once. */
export interface StateEffect {
  readonly field: string;
  readonly set: readonly StateProperty[];
  /** The field and the rule: state effects are grouped by both. */
  readonly groupKey: string;
}

export interface StateProperty {
  readonly property: string;
  readonly value: JsonValue;
  readonly store: MemberSetter;
  /** The field and the property: a second write to it is a conflict. */
  readonly key: string;
}

export interface Acceptance {
  readonly allowed: boolean;
  readonly roles: readonly string[];
  readonly justificationRequired: boolean;
}

/** Whether an actor with these roles may accept the risk: one of the acceptance's roles, or any actor when it lists none. */
export function mayAccept(acceptance: Acceptance, roles: ReadonlySet<string>): boolean {
  return acceptance.roles.length === 0 || acceptance.roles.some((role) => roles.has(role));
}

export interface ValidationRule extends RuleBase {
  readonly kind: "validation";
  readonly assert: Node;
  readonly severity: Severity;
  readonly code: string;
  readonly messageKey: string;
  /** Each arg's expression and the store of its value into the finding's `args`. */
  readonly args: readonly (readonly [Node, MemberSetter])[];
  readonly acknowledgementRequired: boolean;
  readonly acceptance: Acceptance | undefined;
  readonly fields: readonly string[];
  readonly forEach: { readonly pointer: string; readonly read: ValueReader } | undefined;
  readonly typeName: JsonValue | undefined;
  readonly location: Place | undefined;
}

export interface ActionRule extends RuleBase {
  readonly kind: "action";
  readonly commands: readonly {
    readonly name: JsonValue;
    readonly type: JsonValue;
    readonly ref: string | undefined;
    readonly keyParts: readonly Node[];
    readonly payload: readonly (readonly [string, Node])[];
  }[];
}

export type PreparedRule = ComputeRule | StateRule | ValidationRule | ActionRule;

/**
 * The role of each expression a rule holds, as a traced plan records it
 * (explanation/expression-trace.ts) and an explanation reads it back.
 */
export const EXPRESSION_ROLES = {
  when: "when",
  assert: "assert",
  assign: (index: number): string => `assign\u0000${index}`,
  arg: (name: string): string => `args\u0000${name}`,
  commandKey: (command: number, part: number): string => `commands\u0000${command}\u0000key\u0000${part}`,
  commandPayload: (command: number, name: string): string => `commands\u0000${command}\u0000payload\u0000${name}`,
} as const;

/** A JSON Pointer's segments, which are also the segments of the matching variable path. */
export function pointerPath(pointer: string): PathSegment[] {
  return preparePath(pointer.split("/").slice(1));
}

/** Reads a rule for evaluation; undefined for entries that are not rules of a known kind. */
export function prepareRule(rule: JsonValue, context: PrepareContext, position = 0): PreparedRule | undefined {
  if (!isJsonObject(rule)) return undefined;
  const target = objectAt(rule.target);
  const expression = (value: JsonValue | undefined, role: string): Node =>
    prepareExpression(value ?? null, context, role);
  const triggers = Object.hasOwn(rule, "triggers") ? rule.triggers : ["submit"];
  const base: RuleBase = {
    id: stringAt(rule.id),
    position,
    source: rule,
    origin: stringAt(rule.origin),
    priority: isNumberValue(rule.priority) ? rule.priority! : 0,
    enabled: Object.hasOwn(rule, "enabled") ? truthy(rule.enabled) : true,
    entity: target.entity === undefined || target.entity === null ? undefined : stringAt(target.entity),
    operations: new Set(listAt(rule.operations).filter((op): op is string => typeof op === "string")),
    enforcement: typeof rule.enforcement === "string" ? rule.enforcement : "both",
    triggers: Array.isArray(triggers) ? new Set(triggers.filter((t): t is string => typeof t === "string")) : undefined,
    places: VIEW_KEYS.filter((key) => target[key] !== undefined && target[key] !== null).map(
      (key) => [key, target[key]!] as const,
    ),
    when: Object.hasOwn(rule, "when") ? expression(rule.when, EXPRESSION_ROLES.when) : undefined,
  };
  switch (rule.kind) {
    case "compute":
      return {
        ...base,
        kind: "compute",
        assignments: listAt(rule.assign).map((entry, index) => {
          const assignment = objectAt(entry);
          const field = stringAt(assignment.field);
          const path = pointerPath(field);
          const stores = path.map((segment) => memberSetter(segment.key, context.codeGeneration));
          return {
            field,
            path,
            stores,
            read: valueReader(path, context.codeGeneration),
            always: (assignment.mode ?? "default") !== "default",
            value: expression(assignment.value, EXPRESSION_ROLES.assign(index)),
          };
        }),
      };
    case "state":
      return {
        ...base,
        kind: "state",
        effects: listAt(rule.effects).map((entry) => {
          const effect = objectAt(entry);
          const field = stringAt(effect.field);
          const set = Object.entries(objectAt(effect.set)).map(([property, value]) => ({
            property,
            value,
            store: memberSetter(property, context.codeGeneration),
            key: `${field}\u0000${property}`,
          }));
          return { field, set, groupKey: `${field}\u0000${base.id}` };
        }),
      };
    case "validation":
      return prepareValidation(rule, target, base, expression, context.codeGeneration);
    case "action":
      return {
        ...base,
        kind: "action",
        commands: listAt(rule.commands).map((entry, index) => {
          const command = objectAt(entry);
          return {
            name: command.name ?? null,
            type: command.type ?? null,
            ref: typeof command.ref === "string" ? command.ref : undefined,
            keyParts: listAt(command.idempotencyKey).map((part, partIndex) =>
              expression(part, EXPRESSION_ROLES.commandKey(index, partIndex)),
            ),
            payload: Object.entries(objectAt(command.payload)).map(
              ([name, value]) => [name, expression(value, EXPRESSION_ROLES.commandPayload(index, name))] as const,
            ),
          };
        }),
      };
    default:
      // `x-*` kinds and anything else: ignored by conforming runtimes.
      return undefined;
  }
}

function prepareValidation(
  rule: JsonObject,
  target: JsonObject,
  base: RuleBase,
  expression: (value: JsonValue | undefined, role: string) => Node,
  codeGeneration: boolean,
): ValidationRule {
  const finding = objectAt(rule.finding);
  const acceptance = isJsonObject(rule.acceptance) ? rule.acceptance : undefined;
  const fields =
    typeof target.field === "string"
      ? [target.field]
      : listAt(target.fields).map((field) => (typeof field === "string" ? field : String(field)));
  const location: Place = {};
  for (const key of VIEW_KEYS)
    if (typeof target[key] === "string" && target[key] !== "") location[key] = target[key] as string;
  const forEach = typeof rule.forEach === "string" ? rule.forEach : undefined;
  return {
    ...base,
    kind: "validation",
    assert: expression(rule.assert, EXPRESSION_ROLES.assert),
    // Only a bundle's envelope is checked (read-bundle.ts): the compiler's schema allows these three alone.
    severity: stringAt(rule.severity) as Severity,
    code: stringAt(finding.code),
    messageKey: stringAt(finding.message),
    args: Object.entries(objectAt(finding.args)).map(
      ([name, value]) => [expression(value, EXPRESSION_ROLES.arg(name)), memberSetter(name, codeGeneration)] as const,
    ),
    acknowledgementRequired: rule.acknowledgement === "required",
    acceptance: acceptance && {
      allowed: truthy(acceptance.allowed),
      roles: listAt(acceptance.roles).map((role) => (typeof role === "string" ? role : String(role))),
      justificationRequired: (acceptance.justification ?? "required") !== "none",
    },
    fields,
    forEach:
      forEach === undefined ? undefined : { pointer: forEach, read: valueReader(pointerPath(forEach), codeGeneration) },
    typeName: Object.hasOwn(target, "type") ? target.type : undefined,
    location: Object.keys(location).length > 0 ? location : undefined,
  };
}

/** Descending priority; a stable sort keeps document order for equal priorities. */
export function byPriority(a: PreparedRule, b: PreparedRule): number {
  return compare(b.priority as number, a.priority as number);
}
