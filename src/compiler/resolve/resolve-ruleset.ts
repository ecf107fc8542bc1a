import { LoadError, type LoadProblem } from "../../engine/bundle/load-problem.ts";
import { compare } from "../../engine/number/arithmetic.ts";
import { isJsonObject, listAt, objectAt, setMember, stringAt, truthy } from "../../engine/value/json-access.ts";
import type { JsonObject, JsonValue } from "../../engine/value/json-value.ts";
import { valuesEqual } from "../../engine/value/value-equality.ts";
import { rulesetChecksum } from "../checksum/ruleset-checksum.ts";
import { validateRulesetDocument } from "../schema/index.ts";
import { fitsParamType } from "./param-value-type.ts";
import { versionSatisfies } from "./version-range.ts";

/**
 * Inheritance and overrides (specification section 5, steps 1 to 9): a ruleset document and the
 * registry of documents loaded with it become the resolved ruleset of section 6, with its
 * checksum. Steps 1 to 8 stop at the first problem.
 */
export interface ResolvedRuleset {
  /** The object the checksum is computed over: exactly the members section 6 lists. */
  readonly resolved: JsonObject;
  readonly checksum: string;
  /** The document as written, for what the resolved ruleset leaves out (title, status, tests). */
  readonly document: JsonObject;
}

/** Ruleset id to source document. */
export type Registry = ReadonlyMap<string, JsonValue>;

const SEVERITY_RANK: Readonly<Record<string, number>> = { info: 0, warning: 1, error: 2 };

function failWith(code: string, message: string, rule?: string): never {
  throw new LoadError([rule === undefined ? { code, message } : { code, message, rule }]);
}

/** Step 1: the schema, with every problem named by its instance path. */
export function schemaProblems(document: JsonValue): LoadProblem[] {
  return validateRulesetDocument(document).map((problem) => ({
    code: problem.code,
    message: problem.path === "" ? problem.message : `${problem.path}: ${problem.message}`,
  }));
}

export class RulesetResolver {
  /** Parents resolved once per registry: a chain of children does not resolve its root again. */
  private readonly resolvedById = new Map<string, ResolvedRuleset>();
  /** Schema problems per document, so a parent is validated once however many children it has. */
  private readonly checkedDocuments = new WeakMap<object, LoadProblem[]>();

  constructor(private readonly registry: Registry) {}

  /** Throws LoadError with the problems of the first step that fails. */
  resolve(document: JsonValue): ResolvedRuleset {
    return this.resolveWithin(document, []);
  }

  private schemaProblemsOf(document: JsonValue): LoadProblem[] {
    if (typeof document !== "object" || document === null) return schemaProblems(document);
    let problems = this.checkedDocuments.get(document);
    if (!problems) this.checkedDocuments.set(document, (problems = schemaProblems(document)));
    return problems;
  }

  private resolveWithin(document: JsonValue, descendants: readonly string[]): ResolvedRuleset {
    const problems = this.schemaProblemsOf(document);
    if (problems.length > 0) throw new LoadError(problems);
    const doc = document as JsonObject;
    const metadata = objectAt(doc.metadata);
    const id = stringAt(metadata.id);
    if (descendants.includes(id)) failWith("EXTENDS_CYCLE", `extends goes round in a cycle through ${id}`);
    const known = this.resolvedById.get(id);
    if (known && known.document === doc) return known;
    const origin = `${id}@${stringAt(metadata.version)}`;

    let params: JsonObject = {};
    let messages: JsonObject = {};
    let entities: JsonObject = {};
    let types: JsonObject = {};
    let functions: JsonObject = {};
    let operators: JsonObject = {};
    let rules: JsonObject[] = [];
    for (const entry of listAt(doc.extends)) {
      const extension = objectAt(entry);
      const parentId = stringAt(extension.ruleset);
      const parentDocument = this.registry.get(parentId);
      if (parentDocument === undefined) failWith("EXTENDS_NOT_FOUND", `${id}: parent ${parentId} is not in the registry`);
      const parentProblems = this.schemaProblemsOf(parentDocument);
      if (parentProblems.length > 0) throw new LoadError(parentProblems.map((problem) => ({ ...problem, message: `parent ${parentId}: ${problem.message}` })));
      const parentVersion = stringAt(objectAt(objectAt(parentDocument).metadata).version);
      const wanted = stringAt(extension.version);
      if (!versionSatisfies(parentVersion, wanted)) {
        failWith("EXTENDS_VERSION_MISMATCH", `${id}: parent ${parentId} is at version ${parentVersion}, which does not satisfy ${wanted}`);
      }
      const parent = this.resolveWithin(parentDocument, [...descendants, id]);
      if (Object.hasOwn(extension, "checksum") && extension.checksum !== parent.checksum) {
        failWith("EXTENDS_CHECKSUM_MISMATCH", `${id}: parent ${parentId} has checksum ${parent.checksum}, not the pinned ${String(extension.checksum)}`);
      }
      const parentScope = listAt(objectAt(parentDocument).scope);
      const scope = listAt(doc.scope);
      if (scope.length <= parentScope.length || !valuesEqual(scope.slice(0, parentScope.length), parentScope)) {
        failWith("SCOPE_NOT_NARROWER", `${id}: its scope must start with the scope of ${parentId} and add at least one level`);
      }
      // The parent's resolution is shared; the child changes copies.
      const inherited = structuredClone(parent.resolved);
      params = objectAt(inherited.params);
      messages = objectAt(inherited.messages);
      entities = objectAt(inherited.entities);
      types = objectAt(inherited.types);
      functions = objectAt(inherited.functions);
      operators = objectAt(inherited.operators);
      rules = listAt(inherited.rules) as JsonObject[];
    }

    addParams(id, origin, objectAt(doc.params), params);
    mergeEntities(id, objectAt(doc.entities), entities);
    Object.assign(types, objectAt(doc.types));
    Object.assign(operators, objectAt(doc.operators));
    for (const [name, fn] of Object.entries(objectAt(doc.functions))) {
      if (Object.hasOwn(functions, name)) failWith("FUNCTION_REDEFINED", `${id}: function ${name} is inherited and cannot be redefined`);
      setMember(functions, name, { ...objectAt(fn), origin });
    }
    for (const [locale, catalog] of Object.entries(objectAt(doc.messages))) {
      if (!isJsonObject(messages[locale])) setMember(messages, locale, {});
      Object.assign(messages[locale] as JsonObject, objectAt(catalog));
    }

    const overrides = objectAt(doc.overrides);
    overrideParams(id, objectAt(overrides.params), params);
    const rulesById = new Map(rules.map((rule) => [stringAt(rule.id), rule]));
    overrideRules(id, origin, listAt(overrides.rules), rulesById);
    for (const entry of listAt(doc.rules)) {
      const rule = objectAt(entry);
      const ruleId = stringAt(rule.id);
      if (rulesById.has(ruleId)) failWith("RULE_DUPLICATE", `${id}: rule id ${ruleId} is already used`, ruleId);
      const resolvedRule = { ...rule, origin };
      rulesById.set(ruleId, resolvedRule);
      rules.push(resolvedRule);
    }

    const resolved: JsonObject = {
      ruleCascade: doc.ruleCascade ?? null,
      id,
      version: metadata.version ?? null,
      scope: doc.scope ?? null,
      conflictPolicy: Object.hasOwn(doc, "conflictPolicy") ? doc.conflictPolicy! : "fail",
      defaultLocale: Object.hasOwn(doc, "defaultLocale") ? doc.defaultLocale! : "en",
      entities,
      types,
      params,
      functions,
      operators,
      rules,
      messages,
    };
    const result = { resolved, checksum: rulesetChecksum(resolved), document: doc };
    this.resolvedById.set(id, result);
    return result;
  }
}

/** Step 3: the document's own params, each with its value and origin. */
function addParams(id: string, origin: string, declared: JsonObject, params: JsonObject): void {
  for (const [name, entry] of Object.entries(declared)) {
    const param = objectAt(entry);
    if (Object.hasOwn(params, name)) failWith("PARAM_REDEFINED", `${id}: param ${name} is inherited; change it under overrides.params`);
    if (!fitsParamType(param.type, param.default)) failWith("PARAM_TYPE_MISMATCH", `${id}: the default of param ${name} is not a ${stringAt(param.type)}`);
    setMember(params, name, { ...param, value: param.default ?? null, origin });
  }
}

/**
 * Step 4: entities merged member by member. A child may bind more fields to types but never
 * rebind an inherited one, which would quietly detach the field from its parent's type rules.
 */
function mergeEntities(id: string, declared: JsonObject, entities: JsonObject): void {
  for (const [name, entry] of Object.entries(declared)) {
    const entity = objectAt(entry);
    const inheritedEntity = objectAt(entities[name]);
    const inheritedTypes = objectAt(inheritedEntity.fieldTypes);
    const fieldTypes: JsonObject = { ...inheritedTypes };
    for (const [pointer, typeName] of Object.entries(objectAt(entity.fieldTypes))) {
      if (Object.hasOwn(inheritedTypes, pointer) && inheritedTypes[pointer] !== typeName) {
        failWith("FIELD_TYPE_REBOUND", `${id}: ${name}${pointer} is bound to ${String(inheritedTypes[pointer])} by a parent`);
      }
      setMember(fieldTypes, pointer, typeName);
    }
    const merged: JsonObject = { ...inheritedEntity, ...entity };
    if (Object.keys(fieldTypes).length > 0) merged.fieldTypes = fieldTypes;
    setMember(entities, name, merged);
  }
}

/** Step 6: overrides of inherited params, within each param's override policy. */
function overrideParams(id: string, overrides: JsonObject, params: JsonObject): void {
  for (const [name, value] of Object.entries(overrides)) {
    if (!isJsonObject(params[name])) failWith("PARAM_UNKNOWN", `${id}: overrides unknown param ${name}`);
    const param = params[name] as JsonObject;
    const policy = stringAt(param.overridePolicy);
    if (policy === "locked") failWith("PARAM_LOCKED", `${id}: param ${name} is locked by ${stringAt(param.origin)}`);
    if (!fitsParamType(param.type, value)) failWith("PARAM_TYPE_MISMATCH", `${id}: the override of param ${name} is not a ${stringAt(param.type)}`);
    if (policy === "tighten-only" && typeof value === "number" && typeof param.value === "number") {
      const direction = stringAt(param.tightenDirection);
      const order = compare(value, param.value);
      if ((direction === "lower" && order > 0) || (direction !== "lower" && order < 0)) {
        failWith("PARAM_LOOSENED", `${id}: param ${name} may only move ${direction === "lower" ? "lower" : "higher"}`);
      }
    }
    param.value = value;
  }
}

/** Step 7: overrides of inherited rules; a tighten-only rule (the default) may only get stricter. */
function overrideRules(id: string, origin: string, overrides: readonly JsonValue[], rulesById: Map<string, JsonObject>): void {
  for (const entry of overrides) {
    const override = objectAt(entry);
    const ruleId = stringAt(override.rule);
    const rule = rulesById.get(ruleId);
    if (!rule) failWith("RULE_UNKNOWN", `${id}: overrides unknown rule ${ruleId}`);
    const policy = stringAt(rule.overridePolicy);
    if (policy === "locked") failWith("RULE_LOCKED", `${id}: rule ${ruleId} is locked by ${stringAt(rule.origin)}`, ruleId);
    const change = objectAt(override.set);
    if (policy === "tighten-only" || policy === "") {
      const newRank = SEVERITY_RANK[stringAt(change.severity)];
      const currentRank = SEVERITY_RANK[stringAt(rule.severity)];
      const loosened =
        change.enabled === false ||
        (newRank !== undefined && currentRank !== undefined && newRank < currentRank) ||
        (truthy(objectAt(change.acceptance).allowed) && !truthy(objectAt(rule.acceptance).allowed)) ||
        (change.acknowledgement === "none" && rule.acknowledgement === "required");
      if (loosened) failWith("RULE_LOOSENED", `${id}: rule ${ruleId} is tighten-only and this override loosens it`, ruleId);
    }
    for (const [member, value] of Object.entries(change)) setMember(rule, member, value);
    rule.overriddenBy = origin;
  }
}
