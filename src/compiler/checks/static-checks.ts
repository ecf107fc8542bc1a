import { PLACEHOLDER } from "../../engine/evaluation/message-catalog.ts";
import { MAX_EXPRESSION_DEPTH } from "../../engine/expression/expression-limits.ts";
import { checkPortablePattern } from "../../engine/pattern/portable-pattern.ts";
import { isJsonObject, listAt, objectAt, stringAt } from "../../engine/value/json-access.ts";
import type { JsonObject, JsonValue } from "../../engine/value/json-value.ts";
import { expressionTooDeep, placedRuleExpressions, walkExpression } from "../expressions/expression-walk.ts";
import { closestName, didYouMean, suggesting } from "../../engine/names/closest-name.ts";
import { CORE_OPERATOR_NAMES } from "../../engine/expression/operators/core-operator-names.ts";
import { placeIn, type PlacedProblem, type ProblemPlace } from "../problems/problem-place.ts";
import type { DeclarationPlaces } from "../resolve/declaration-places.ts";
import type { MemberPart } from "../source/source-position.ts";
import { pointerSegments, schemaAtPath } from "./entity-schema.ts";
import { loadEntitySchemas, type EntitySchema } from "./entity-schemas.ts";
import type { SchemaLoader } from "./schema-file.ts";
import { asPointer, pathSuggestion } from "./schema-path-suggestion.ts";
import { callsItself } from "./function-recursion.ts";

/** Where a problem sits: inside which declared rule, function or entity, and where inside it. */
interface Inside {
  readonly declaration: keyof DeclarationPlaces;
  readonly name: string;
  readonly path: readonly string[];
  readonly part?: MemberPart;
}

type AddProblem = (code: string, message: string, rule: string | undefined, inside: Inside | undefined) => void;

/**
 * The static checks of a resolved ruleset (specification section 5, step 10). Every problem is
 * reported, each with its rule id where there is one and its place in the declaring document
 * where `places` are given. Without `loadSchema`, PATH_UNKNOWN and SCHEMA_REF_UNRESOLVED are skipped.
 */
export function staticProblems(
  resolved: JsonObject,
  places: DeclarationPlaces | undefined,
  loadSchema?: SchemaLoader,
): PlacedProblem[] {
  const problems: PlacedProblem[] = [];
  const add: AddProblem = (code, message, rule, inside) => {
    const declared = inside === undefined ? undefined : places?.[inside.declaration].get(inside.name);
    const place =
      declared && inside ? placeIn(declared.document, [...declared.path, ...inside.path], inside.part) : undefined;
    problems.push({
      code,
      message,
      ...(rule === undefined ? {} : { rule }),
      ...(place === undefined ? {} : { place }),
    });
  };
  const entities = objectAt(resolved.entities);
  const types = objectAt(resolved.types);
  const params = objectAt(resolved.params);
  const functions = objectAt(resolved.functions);
  const operators = objectAt(resolved.operators);
  const refPlace = (name: string): ProblemPlace | undefined => {
    const declared = places?.entities.get(name);
    return declared && placeIn(declared.document, [...declared.path, "schema", "$ref"]);
  };
  const entitySchemas = loadSchema
    ? loadEntitySchemas(entities, loadSchema, refPlace, (problem) => problems.push(problem))
    : new Map<string, EntitySchema>();

  for (const [name, entity] of Object.entries(entities)) {
    const schema = entitySchemas.get(name);
    for (const [pointer, typeName] of Object.entries(objectAt(objectAt(entity).fieldTypes))) {
      const inside = (part: MemberPart): Inside => ({
        declaration: "entities",
        name,
        path: ["fieldTypes", pointer],
        part,
      });
      if (typeof typeName !== "string" || !Object.hasOwn(types, typeName)) {
        add(
          "TYPE_UNKNOWN",
          `entity ${name}: ${pointer} is bound to undeclared type ${String(typeName)}${didYouMean(String(typeName), Object.keys(types))}`,
          undefined,
          inside("value"),
        );
      }
      const segments = pointerSegments(pointer);
      if (schema && schemaAtPath(schema.document, schema.schema, segments) === undefined) {
        add(
          "PATH_UNKNOWN",
          `entity ${name}: fieldTypes ${pointer} is not in the schema${pathSuggestion(schema, schema.schema, segments, asPointer)}`,
          undefined,
          inside("key"),
        );
      }
    }
  }

  /**
   * Checks every expression node shares: patterns, custom operators, function calls. `where` leads
   * the message of a function body (`function lateFee: `); a rule's problem names its rule already.
   */
  const checkCall = (
    node: JsonObject,
    where: string | undefined,
    rule: string | undefined,
    at: (member: string) => Inside,
  ): void => {
    const lead = where === undefined ? "" : `${where}: `;
    if (node.op === "matches") {
      const args = listAt(node.args);
      const pattern = args.length === 2 ? args[1] : undefined;
      if (typeof pattern !== "string")
        add("PATTERN_NOT_PORTABLE", `${lead}the pattern of matches must be a string literal`, rule, at("args"));
      else {
        const check = checkPortablePattern(pattern);
        if (!check.ok)
          add(
            "PATTERN_NOT_PORTABLE",
            `${lead}pattern ${JSON.stringify(pattern)} is not portable: ${check.reason}`,
            rule,
            at("args/1"),
          );
      }
    }
    if (typeof node.op === "string" && node.op.startsWith("x-") && !Object.hasOwn(operators, node.op)) {
      add(
        "OPERATOR_UNDECLARED",
        `${lead}custom operator ${node.op} is not declared under operators${didYouMean(node.op, Object.keys(operators))}`,
        rule,
        at("op"),
      );
    }
    if (typeof node.fn === "string") {
      const fn = functions[node.fn];
      if (!isJsonObject(fn))
        add(
          "FUNCTION_UNKNOWN",
          `${lead}unknown function ${node.fn}${unknownCallSuggestion(node.fn, Object.keys(functions))}`,
          rule,
          at("fn"),
        );
      else if (listAt(node.args).length !== listAt(fn.params).length) {
        add(
          "FUNCTION_ARITY",
          `${lead}function ${node.fn} takes ${listAt(fn.params).length} argument(s)`,
          rule,
          at("fn"),
        );
      }
    }
  };
  /** PARAM_UNDECLARED, with the closest declared param. */
  const checkParam = (
    text: string,
    name: string | undefined,
    where: string,
    rule: string | undefined,
    inside: Inside,
  ): void => {
    if (name !== undefined && Object.hasOwn(params, name)) return;
    const closest = name === undefined ? undefined : closestName(name, Object.keys(params));
    add(
      "PARAM_UNDECLARED",
      `${where}${text} names no declared param${closest === undefined ? "" : `: did you mean \`params.${closest}\`?`}`,
      rule,
      inside,
    );
  };

  for (const [name, definition] of Object.entries(functions)) {
    const fn = objectAt(definition);
    const where = `function ${name}`;
    if (expressionTooDeep(fn.body, MAX_EXPRESSION_DEPTH)) {
      add("EXPRESSION_TOO_DEEP", `${where}: the body is nested more than ${MAX_EXPRESSION_DEPTH} deep`, undefined, {
        declaration: "functions",
        name,
        path: ["body"],
      });
      continue;
    }
    const declared = listAt(fn.params);
    walkExpression(fn.body, (node, itemBound, nodePath) => {
      const at = (member: string): Inside => ({
        declaration: "functions",
        name,
        path: ["body", ...nodePath, ...member.split("/")],
      });
      checkCall(node, where, undefined, at);
      const path = variablePath(node);
      if (!path) return;
      const [root, first] = path;
      if (
        root === "value" ||
        root === "field" ||
        (root === "item" && !itemBound) ||
        (root === "arg" && (first === undefined || !declared.includes(first)))
      ) {
        const hint = root === "arg" && first !== undefined ? didYouMean(first, declared.map(String)) : "";
        add(
          "SCOPE_INVALID",
          `${where}: ${stringAt(node.var)} is not in scope in a function body${hint}`,
          undefined,
          at("var"),
        );
      }
      if (root === "params") checkParam(stringAt(node.var), first, `${where}: `, undefined, at("var"));
    });
  }
  for (const name of Object.keys(functions)) {
    if (callsItself(name, functions))
      add("FUNCTION_RECURSIVE", `function ${name} calls itself, directly or indirectly`, undefined, {
        declaration: "functions",
        name,
        path: [],
        part: "key",
      });
  }

  const defaultLocale = stringAt(resolved.defaultLocale);
  const defaultMessages = objectAt(objectAt(resolved.messages)[defaultLocale]);
  const codes = new Map<string, string>();
  for (const entry of listAt(resolved.rules)) {
    const rule = objectAt(entry);
    const id = stringAt(rule.id);
    const inRule = (path: readonly string[], part?: MemberPart): Inside => ({
      declaration: "rules",
      name: id,
      path,
      part,
    });
    const target = objectAt(rule.target);
    const typed = Object.hasOwn(target, "type");
    if (typed && (typeof target.type !== "string" || !Object.hasOwn(types, target.type))) {
      add(
        "TYPE_UNKNOWN",
        `undeclared type ${String(target.type)}${didYouMean(String(target.type), Object.keys(types))}`,
        id,
        inRule(["target", "type"]),
      );
    }
    const entityName = stringAt(target.entity);
    if (Object.hasOwn(target, "entity") && !Object.hasOwn(entities, entityName)) {
      add(
        "ENTITY_UNKNOWN",
        `unknown entity ${entityName}${didYouMean(entityName, Object.keys(entities))}`,
        id,
        inRule(["target", "entity"]),
      );
      continue;
    }
    const schema = entitySchemas.get(entityName);
    const forEach = typeof rule.forEach === "string" ? rule.forEach : undefined;
    let itemSchema: JsonValue | undefined;
    if (forEach !== undefined && schema) {
      itemSchema = schemaAtPath(schema.document, schema.schema, [...pointerSegments(forEach), "0"]);
      if (itemSchema === undefined) {
        add(
          "PATH_UNKNOWN",
          `forEach ${forEach} is not in the ${entityName} schema${pathSuggestion(schema, schema.schema, pointerSegments(forEach), asPointer)}`,
          id,
          inRule(["forEach"]),
        );
      }
    }
    const checkPointer = (
      pointer: JsonValue | undefined,
      base: JsonValue | undefined,
      what: string,
      path: readonly string[],
    ): void => {
      const segments = pointerSegments(stringAt(pointer));
      if (schema && base !== undefined && schemaAtPath(schema.document, base, segments) === undefined) {
        add(
          "PATH_UNKNOWN",
          `${what} ${stringAt(pointer)} is not in the ${entityName} schema${pathSuggestion(schema, base, segments, asPointer)}`,
          id,
          inRule(path),
        );
      }
    };
    const targetBase = forEach !== undefined ? itemSchema : schema?.schema;
    if (Object.hasOwn(target, "field")) checkPointer(target.field, targetBase, "target", ["target", "field"]);
    else
      listAt(target.fields).forEach((field, index) =>
        checkPointer(field, targetBase, "target", ["target", "fields", String(index)]),
      );
    listAt(rule.effects).forEach((effect, index) =>
      checkPointer(objectAt(effect).field, schema?.schema, "effect field", ["effects", String(index), "field"]),
    );
    listAt(rule.assign).forEach((assignment, index) =>
      checkPointer(objectAt(assignment).field, schema?.schema, "assign field", ["assign", String(index), "field"]),
    );

    const onCreate = listAt(rule.operations).includes("create");
    for (const { expression, path: expressionPath } of placedRuleExpressions(rule)) {
      if (expressionTooDeep(expression, MAX_EXPRESSION_DEPTH)) {
        add(
          "EXPRESSION_TOO_DEEP",
          `an expression is nested more than ${MAX_EXPRESSION_DEPTH} deep`,
          id,
          inRule(expressionPath),
        );
        continue;
      }
      walkExpression(expression, (node, itemBound, nodePath) => {
        const at = (member: string): Inside => inRule([...expressionPath, ...nodePath, ...member.split("/")]);
        checkCall(node, undefined, id, at);
        const path = variablePath(node);
        if (!path) return;
        const [root, ...segments] = path;
        const text = stringAt(node.var);
        const dotted = (rest: readonly string[]): string => [root, ...rest].join(".");
        if (root === "params") checkParam(text, segments[0], "", id, at("var"));
        if (
          (root === "data" || root === "original") &&
          schema &&
          schemaAtPath(schema.document, schema.schema, segments) === undefined
        ) {
          add(
            "PATH_UNKNOWN",
            `path ${text} is not in the ${entityName} schema${pathSuggestion(schema, schema.schema, segments, dotted)}`,
            id,
            at("var"),
          );
        }
        if (root === "item" && !itemBound) {
          // The element of forEach, not of a collection operator.
          if (forEach === undefined)
            add(
              "SCOPE_INVALID",
              `${text}: item is not in scope outside forEach and collection operators`,
              id,
              at("var"),
            );
          else if (
            itemSchema !== undefined &&
            schema &&
            schemaAtPath(schema.document, itemSchema, segments) === undefined
          ) {
            add(
              "PATH_UNKNOWN",
              `path ${text} is not in the item schema of ${forEach}${pathSuggestion(schema, itemSchema, segments, dotted)}`,
              id,
              at("var"),
            );
          }
        }
        if (root === "original" && onCreate)
          add(
            "ORIGINAL_ON_CREATE",
            `${text} is read but the rule applies to create, where there is no original`,
            id,
            at("var"),
          );
        if (root === "arg" || ((root === "value" || root === "field") && !typed))
          add("SCOPE_INVALID", `${text} is not in scope in this rule`, id, at("var"));
      });
    }

    if (rule.kind === "validation") {
      const finding = objectAt(rule.finding);
      const code = stringAt(finding.code);
      const message = stringAt(finding.message);
      const other = codes.get(code);
      if (other !== undefined)
        add("FINDING_CODE_DUPLICATE", `finding code ${code} is also used by ${other}`, id, inRule(["finding", "code"]));
      codes.set(code, id);
      const template = defaultMessages[message];
      if (typeof template !== "string") {
        add(
          "MESSAGE_MISSING",
          `message ${message} is missing from the default locale ${defaultLocale}${didYouMean(message, Object.keys(defaultMessages))}`,
          id,
          inRule(["finding", "message"]),
        );
      } else {
        const args = objectAt(finding.args);
        const missing = [...template.matchAll(PLACEHOLDER)]
          .map((match) => match[1]!)
          .filter((name) => !Object.hasOwn(args, name));
        if (missing.length > 0)
          add(
            "MESSAGE_ARG_MISSING",
            `message ${message} has placeholders without finding.args: ${missing.join(", ")}`,
            id,
            inRule(["finding"], "key"),
          );
      }
    }
  }
  return problems;
}

/** The root and segments of a `{var}` node, or undefined for other nodes. */
function variablePath(node: JsonObject): [string, ...string[]] | undefined {
  if (typeof node.var !== "string") return undefined;
  return node.var.split(".") as [string, ...string[]];
}

/**
 * What an unknown call most likely meant: a declared function, else an operator, which text writes
 * as a call too (`exist(x)` for `exists(x)`).
 */
function unknownCallSuggestion(name: string, functions: readonly string[]): string {
  return suggesting(closestName(name, functions) ?? closestName(name, CORE_OPERATOR_NAMES));
}
