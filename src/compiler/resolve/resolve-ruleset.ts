import { LoadError, type LoadProblem } from "../../engine/bundle/load-problem.ts";
import { copyJson } from "../../engine/value/json-copy.ts";
import { isJsonObject, listAt, objectAt, setMember, stringAt } from "../../engine/value/json-access.ts";
import type { JsonObject, JsonValue } from "../../engine/value/json-value.ts";
import { valuesEqual } from "../../engine/value/value-equality.ts";
import { staticProblems } from "../checks/static-checks.ts";
import type { SchemaLoader } from "../checks/schema-file.ts";
import { rulesetChecksum } from "../checksum/ruleset-checksum.ts";
import { didYouMean } from "../../engine/names/closest-name.ts";
import { placeIn, type PlacedProblem, type ProblemPlace } from "../problems/problem-place.ts";
import { validateRulesetDocument } from "../schema/index.ts";
import { pointerPath } from "../source/json-pointer.ts";
import { overrideParams, overrideRules } from "./apply-overrides.ts";
import type { DeclarationPlaces, Declared } from "./declaration-places.ts";
import { fitsParamType } from "./param-value-type.ts";
import { ResolutionProblems } from "./resolution-problems.ts";
import { versionSatisfies } from "./version-range.ts";

/**
 * Inheritance and overrides (specification section 5, steps 1 to 9): a ruleset document and the
 * registry of documents loaded with it become the resolved ruleset of section 6, with its
 * checksum. Steps 1 and 2 (the schema, the parents) stop at their first problem; steps 3 to 8
 * report every problem of the document together.
 */
export interface ResolvedRuleset {
  /** The object the checksum is computed over: exactly the members section 6 lists. */
  readonly resolved: JsonObject;
  readonly checksum: string;
  /** The document as written, for what the resolved ruleset leaves out (title, status, tests). */
  readonly document: JsonObject;
  /** Where each rule, function and entity was declared, for the places of later problems. */
  readonly places: DeclarationPlaces;
  /** The parent, its parent and so on. */
  readonly parents: readonly ResolvedRuleset[];
}

/** Ruleset id to source document. */
export type Registry = ReadonlyMap<string, JsonValue>;

function failWith(code: string, message: string, place: ProblemPlace, rule?: string): never {
  const problem: PlacedProblem = rule === undefined ? { code, message, place } : { code, message, rule, place };
  throw new LoadError([problem]);
}

/** Step 1: the schema, each problem placed at its instance path and naming the rule it sits in. */
export function schemaProblems(document: JsonValue): PlacedProblem[] {
  return validateRulesetDocument(document).map((problem) => {
    const path = pointerPath(problem.path);
    const rule =
      path[0] === "rules" && path[1] !== undefined
        ? objectAt(listAt(objectAt(document).rules)[Number(path[1])]).id
        : undefined;
    const place = placeIn(document, path, problem.part);
    return typeof rule === "string"
      ? { code: problem.code, message: problem.message, rule, place }
      : { code: problem.code, message: problem.message, place };
  });
}

/** The problem of a child whose parent fails its own checks (listed before it). */
export function parentInvalid(child: JsonValue, parentId: string, count: number): PlacedProblem {
  const childId = stringAt(objectAt(objectAt(child).metadata).id);
  const index = listAt(objectAt(child).extends).findIndex((entry) => objectAt(entry).ruleset === parentId);
  return {
    code: "EXTENDS_INVALID",
    message: `${childId} cannot be compiled: its parent ${parentId} has ${count} problem(s) of its own`,
    place: placeIn(child, ["extends", String(Math.max(index, 0)), "ruleset"]),
  };
}

export class RulesetResolver {
  /** Parents resolved once per registry: a chain of children does not resolve its root again. */
  private readonly resolvedById = new Map<string, ResolvedRuleset>();
  /** Schema problems per document, so a parent is validated once however many children it has. */
  private readonly checkedDocuments = new WeakMap<object, LoadProblem[]>();
  /** Static-check problems per resolved ruleset, for the same reason. */
  private readonly staticallyChecked = new WeakMap<ResolvedRuleset, PlacedProblem[]>();

  /**
   * @param refused ruleset id to the problems of a source file that names that id but could not
   *   be read: a child of it is told why, not that its parent is missing.
   */
  constructor(
    private readonly registry: Registry,
    private readonly refused: ReadonlyMap<string, readonly LoadProblem[]> = new Map(),
  ) {}

  /** Throws LoadError with the problems of the first step that fails. */
  resolve(document: JsonValue): ResolvedRuleset {
    return this.resolveWithin(document, [], false);
  }

  /**
   * Resolves a document that fails the schema as far as its members allow, so that the static
   * checks can report the problems of its valid parts too. Nothing is cached; throws as resolve.
   */
  resolveDespiteSchema(document: JsonValue): ResolvedRuleset {
    return this.resolveWithin(document, [], true);
  }

  /**
   * The static-check problems of a ruleset this resolver resolved, worked out once: a parent is
   * checked for itself and again as the parent of each child. One resolver serves one schema loader.
   */
  staticProblemsOf(ruleset: ResolvedRuleset, loadSchema: SchemaLoader | undefined): PlacedProblem[] {
    let problems = this.staticallyChecked.get(ruleset);
    if (!problems)
      this.staticallyChecked.set(ruleset, (problems = staticProblems(ruleset.resolved, ruleset.places, loadSchema)));
    return problems;
  }

  private schemaProblemsOf(document: JsonValue): LoadProblem[] {
    if (typeof document !== "object" || document === null) return schemaProblems(document);
    let problems = this.checkedDocuments.get(document);
    if (!problems) this.checkedDocuments.set(document, (problems = schemaProblems(document)));
    return problems;
  }

  private resolveWithin(document: JsonValue, descendants: readonly string[], despiteSchema: boolean): ResolvedRuleset {
    if (!despiteSchema) {
      const problems = this.schemaProblemsOf(document);
      if (problems.length > 0) throw new LoadError(problems);
    }
    const doc = objectAt(document);
    const metadata = objectAt(doc.metadata);
    const id = stringAt(metadata.id);
    if (descendants.includes(id))
      failWith(
        "EXTENDS_CYCLE",
        `extends goes round in a cycle through ${id}`,
        placeIn(doc, ["extends", "0", "ruleset"]),
      );
    const known = this.resolvedById.get(id);
    if (known && known.document === doc) return known;
    const origin = `${id}@${stringAt(metadata.version)}`;
    const at = (...path: string[]): ProblemPlace => placeIn(doc, path);
    const places = {
      rules: new Map<string, Declared>(),
      functions: new Map<string, Declared>(),
      entities: new Map<string, Declared>(),
    };
    const parents: ResolvedRuleset[] = [];

    let params: JsonObject = {};
    let messages: JsonObject = {};
    let entities: JsonObject = {};
    let types: JsonObject = {};
    let functions: JsonObject = {};
    let operators: JsonObject = {};
    let rules: JsonObject[] = [];
    for (const [index, entry] of listAt(doc.extends).entries()) {
      const extension = objectAt(entry);
      const parentId = stringAt(extension.ruleset);
      const parentDocument = this.registry.get(parentId);
      const extendsAt = (member: string): ProblemPlace => at("extends", String(index), member);
      const cannotCompile = (problems: readonly LoadProblem[]): LoadError =>
        new LoadError([...problems, parentInvalid(doc, parentId, problems.length)]);
      if (parentDocument === undefined) {
        const refused = this.refused.get(parentId);
        if (refused !== undefined) throw cannotCompile(refused);
        failWith(
          "EXTENDS_NOT_FOUND",
          `${id}: parent ${parentId} is not in the registry${didYouMean(parentId, this.registry.keys())}`,
          extendsAt("ruleset"),
        );
      }
      const parentProblems = this.schemaProblemsOf(parentDocument);
      if (parentProblems.length > 0) throw cannotCompile(parentProblems);
      const parentVersion = stringAt(objectAt(objectAt(parentDocument).metadata).version);
      const wanted = stringAt(extension.version);
      if (!versionSatisfies(parentVersion, wanted)) {
        failWith(
          "EXTENDS_VERSION_MISMATCH",
          `${id}: parent ${parentId} is at version ${parentVersion}, which does not satisfy ${wanted}`,
          extendsAt("version"),
        );
      }
      let parent: ResolvedRuleset;
      try {
        parent = this.resolveWithin(parentDocument, [...descendants, id], false);
      } catch (error) {
        if (!(error instanceof LoadError) || error.problems.some((problem) => problem.code === "EXTENDS_CYCLE"))
          throw error;
        throw cannotCompile(error.problems);
      }
      if (Object.hasOwn(extension, "checksum") && extension.checksum !== parent.checksum) {
        failWith(
          "EXTENDS_CHECKSUM_MISMATCH",
          `${id}: parent ${parentId} has checksum ${parent.checksum}, not the pinned ${String(extension.checksum)}`,
          extendsAt("checksum"),
        );
      }
      const parentScope = listAt(objectAt(parentDocument).scope);
      const scope = listAt(doc.scope);
      if (scope.length <= parentScope.length || !valuesEqual(scope.slice(0, parentScope.length), parentScope)) {
        failWith(
          "SCOPE_NOT_NARROWER",
          `${id}: its scope must start with the scope of ${parentId} and add at least one level`,
          at("scope"),
        );
      }
      parents.push(parent, ...parent.parents);
      for (const kind of ["rules", "functions", "entities"] as const)
        for (const [name, place] of parent.places[kind]) places[kind].set(name, place);
      // The parent's resolution is shared; the child changes copies.
      const inherited = copyJson(parent.resolved);
      params = objectAt(inherited.params);
      messages = objectAt(inherited.messages);
      entities = objectAt(inherited.entities);
      types = objectAt(inherited.types);
      functions = objectAt(inherited.functions);
      operators = objectAt(inherited.operators);
      rules = listAt(inherited.rules) as JsonObject[];
    }

    const problems = new ResolutionProblems();
    addParams(id, origin, objectAt(doc.params), params, doc, problems);
    mergeEntities(id, objectAt(doc.entities), entities, doc, problems);
    for (const name of Object.keys(objectAt(doc.entities)))
      places.entities.set(name, { document: doc, path: ["entities", name] });
    Object.assign(types, objectAt(doc.types));
    Object.assign(operators, objectAt(doc.operators));
    for (const [name, fn] of Object.entries(objectAt(doc.functions))) {
      if (Object.hasOwn(functions, name)) {
        problems.report(
          "FUNCTION_REDEFINED",
          `${id}: function ${name} is inherited and cannot be redefined`,
          placeIn(doc, ["functions", name], "key"),
        );
        continue;
      }
      setMember(functions, name, { ...objectAt(fn), origin });
      places.functions.set(name, { document: doc, path: ["functions", name] });
    }
    for (const [locale, catalog] of Object.entries(objectAt(doc.messages))) {
      if (!isJsonObject(messages[locale])) setMember(messages, locale, {});
      Object.assign(messages[locale] as JsonObject, objectAt(catalog));
    }

    const overrides = objectAt(doc.overrides);
    overrideParams(id, objectAt(overrides.params), params, doc, problems);
    const rulesById = new Map(rules.map((rule) => [stringAt(rule.id), rule]));
    overrideRules(id, origin, listAt(overrides.rules), rulesById, doc, problems);
    for (const [index, entry] of listAt(doc.rules).entries()) {
      const rule = objectAt(entry);
      const ruleId = stringAt(rule.id);
      if (rulesById.has(ruleId)) {
        const first = places.rules.get(ruleId);
        const firstDefinition = first === undefined ? undefined : placeIn(first.document, [...first.path, "id"]);
        problems.report(
          "RULE_DUPLICATE",
          `${id}: rule id ${ruleId} is already used`,
          at("rules", String(index), "id"),
          { rule: ruleId, ...(firstDefinition === undefined ? {} : { firstDefinition }) },
        );
        continue;
      }
      const resolvedRule = { ...rule, origin };
      rulesById.set(ruleId, resolvedRule);
      rules.push(resolvedRule);
      places.rules.set(ruleId, { document: doc, path: ["rules", String(index)] });
    }
    problems.throwIfAny();

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
    const result = { resolved, checksum: rulesetChecksum(resolved), document: doc, places, parents };
    if (!despiteSchema) this.resolvedById.set(id, result);
    return result;
  }
}

/** Step 3: the document's own params, each with its value and origin. */
function addParams(
  id: string,
  origin: string,
  declared: JsonObject,
  params: JsonObject,
  doc: JsonObject,
  problems: ResolutionProblems,
): void {
  for (const [name, entry] of Object.entries(declared)) {
    const param = objectAt(entry);
    if (Object.hasOwn(params, name)) {
      problems.report(
        "PARAM_REDEFINED",
        `${id}: param ${name} is inherited; change it under overrides.params`,
        placeIn(doc, ["params", name], "key"),
      );
      continue;
    }
    if (!fitsParamType(param.type, param.default))
      problems.report(
        "PARAM_TYPE_MISMATCH",
        `${id}: the default of param ${name} is not a ${stringAt(param.type)}`,
        placeIn(doc, ["params", name, "default"]),
      );
    setMember(params, name, { ...param, value: param.default ?? null, origin });
  }
}

/**
 * Step 4: entities merged member by member. A child may bind more fields to types but never
 * rebind an inherited one, which would quietly detach the field from its parent's type rules.
 */
function mergeEntities(
  id: string,
  declared: JsonObject,
  entities: JsonObject,
  doc: JsonObject,
  problems: ResolutionProblems,
): void {
  for (const [name, entry] of Object.entries(declared)) {
    const entity = objectAt(entry);
    const inheritedEntity = objectAt(entities[name]);
    const inheritedTypes = objectAt(inheritedEntity.fieldTypes);
    const fieldTypes: JsonObject = { ...inheritedTypes };
    for (const [pointer, typeName] of Object.entries(objectAt(entity.fieldTypes))) {
      if (Object.hasOwn(inheritedTypes, pointer) && inheritedTypes[pointer] !== typeName) {
        problems.report(
          "FIELD_TYPE_REBOUND",
          `${id}: ${name}${pointer} is bound to ${String(inheritedTypes[pointer])} by a parent`,
          placeIn(doc, ["entities", name, "fieldTypes", pointer]),
        );
        continue;
      }
      setMember(fieldTypes, pointer, typeName);
    }
    const merged: JsonObject = { ...inheritedEntity, ...entity };
    if (Object.keys(fieldTypes).length > 0) merged.fieldTypes = fieldTypes;
    setMember(entities, name, merged);
  }
}
