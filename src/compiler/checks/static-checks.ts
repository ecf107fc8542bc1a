import type { LoadProblem } from "../../engine/bundle/load-problem.ts";
import { PLACEHOLDER } from "../../engine/evaluation/message-catalog.ts";
import { MAX_EXPRESSION_DEPTH } from "../../engine/expression/expression-limits.ts";
import { checkPortablePattern } from "../../engine/pattern/portable-pattern.ts";
import { isJsonObject, listAt, objectAt, stringAt } from "../../engine/value/json-access.ts";
import type { JsonObject, JsonValue } from "../../engine/value/json-value.ts";
import { expressionTooDeep, reachableNames, ruleExpressions, walkExpression } from "../expressions/expression-walk.ts";
import { pointerSegments, resolveFragment, schemaAtPath } from "./entity-schema.ts";

/**
 * Returns the parsed document an entity's `$ref` names (the part before `#`), or undefined when
 * there is none.
 */
export type SchemaLoader = (file: string) => JsonValue | undefined;

interface EntitySchema {
  readonly document: JsonValue;
  readonly schema: JsonValue;
}

/**
 * The static checks of a resolved ruleset (specification section 5, step 10). Every problem is
 * reported, each with its rule id where there is one. Without `loadSchema`, PATH_UNKNOWN and
 * SCHEMA_REF_UNRESOLVED are skipped.
 */
export function staticProblems(resolved: JsonObject, loadSchema?: SchemaLoader): LoadProblem[] {
  const problems: LoadProblem[] = [];
  const add = (code: string, message: string, rule?: string): void => {
    problems.push(rule === undefined ? { code, message } : { code, message, rule });
  };
  const entities = objectAt(resolved.entities);
  const types = objectAt(resolved.types);
  const params = objectAt(resolved.params);
  const functions = objectAt(resolved.functions);
  const operators = objectAt(resolved.operators);
  const entitySchemas = loadSchema ? loadEntitySchemas(entities, loadSchema, add) : new Map<string, EntitySchema>();

  for (const [name, entity] of Object.entries(entities)) {
    const schema = entitySchemas.get(name);
    for (const [pointer, typeName] of Object.entries(objectAt(objectAt(entity).fieldTypes))) {
      if (typeof typeName !== "string" || !Object.hasOwn(types, typeName)) add("TYPE_UNKNOWN", `entity ${name}: ${pointer} is bound to undeclared type ${String(typeName)}`);
      if (schema && schemaAtPath(schema.document, schema.schema, pointerSegments(pointer)) === undefined) {
        add("PATH_UNKNOWN", `entity ${name}: fieldTypes ${pointer} is not in the schema`);
      }
    }
  }

  /** Checks every expression node shares: patterns, custom operators, function calls. */
  const checkCall = (node: JsonObject, where: string, rule: string | undefined): void => {
    if (node.op === "matches") {
      const args = listAt(node.args);
      const pattern = args.length === 2 ? args[1] : undefined;
      if (typeof pattern !== "string") add("PATTERN_NOT_PORTABLE", `${where}: the pattern of matches must be a string literal`, rule);
      else {
        const check = checkPortablePattern(pattern);
        if (!check.ok) add("PATTERN_NOT_PORTABLE", `${where}: pattern ${JSON.stringify(pattern)} is not portable: ${check.reason}`, rule);
      }
    }
    if (typeof node.op === "string" && node.op.startsWith("x-") && !Object.hasOwn(operators, node.op)) {
      add("OPERATOR_UNDECLARED", `${where}: custom operator ${node.op} is not declared under operators`, rule);
    }
    if (typeof node.fn === "string") {
      const fn = functions[node.fn];
      if (!isJsonObject(fn)) add("FUNCTION_UNKNOWN", `${where}: unknown function ${node.fn}`, rule);
      else if (listAt(node.args).length !== listAt(fn.params).length) {
        add("FUNCTION_ARITY", `${where}: function ${node.fn} takes ${listAt(fn.params).length} argument(s)`, rule);
      }
    }
  };

  for (const [name, definition] of Object.entries(functions)) {
    const fn = objectAt(definition);
    const where = `function ${name}`;
    if (expressionTooDeep(fn.body, MAX_EXPRESSION_DEPTH)) {
      add("EXPRESSION_TOO_DEEP", `${where}: the body is nested more than ${MAX_EXPRESSION_DEPTH} deep`);
      continue;
    }
    const declared = listAt(fn.params);
    walkExpression(fn.body, (node, itemBound) => {
      checkCall(node, where, undefined);
      const path = variablePath(node);
      if (!path) return;
      const [root, first] = path;
      if (root === "value" || root === "field" || (root === "item" && !itemBound) || (root === "arg" && (first === undefined || !declared.includes(first)))) {
        add("SCOPE_INVALID", `${where}: ${stringAt(node.var)} is not in scope in a function body`);
      }
      if (root === "params" && (first === undefined || !Object.hasOwn(params, first))) add("PARAM_UNDECLARED", `${where}: ${stringAt(node.var)} names no declared param`);
    });
  }
  for (const name of Object.keys(functions)) {
    if (callsItself(name, functions)) add("FUNCTION_RECURSIVE", `function ${name} calls itself, directly or indirectly`);
  }

  const defaultLocale = stringAt(resolved.defaultLocale);
  const defaultMessages = objectAt(objectAt(resolved.messages)[defaultLocale]);
  const codes = new Map<string, string>();
  for (const entry of listAt(resolved.rules)) {
    const rule = objectAt(entry);
    const id = stringAt(rule.id);
    const target = objectAt(rule.target);
    const typed = Object.hasOwn(target, "type");
    if (typed && (typeof target.type !== "string" || !Object.hasOwn(types, target.type))) add("TYPE_UNKNOWN", `undeclared type ${String(target.type)}`, id);
    const entityName = stringAt(target.entity);
    if (Object.hasOwn(target, "entity") && !Object.hasOwn(entities, entityName)) {
      add("ENTITY_UNKNOWN", `unknown entity ${entityName}`, id);
      continue;
    }
    const schema = entitySchemas.get(entityName);
    const forEach = typeof rule.forEach === "string" ? rule.forEach : undefined;
    let itemSchema: JsonValue | undefined;
    if (forEach !== undefined && schema) {
      itemSchema = schemaAtPath(schema.document, schema.schema, [...pointerSegments(forEach), "0"]);
      if (itemSchema === undefined) add("PATH_UNKNOWN", `forEach ${forEach} is not in the ${entityName} schema`, id);
    }
    const checkPointer = (pointer: JsonValue | undefined, base: JsonValue | undefined, what: string): void => {
      if (schema && base !== undefined && schemaAtPath(schema.document, base, pointerSegments(stringAt(pointer))) === undefined) {
        add("PATH_UNKNOWN", `${what} ${stringAt(pointer)} is not in the ${entityName} schema`, id);
      }
    };
    const targetBase = forEach !== undefined ? itemSchema : schema?.schema;
    if (Object.hasOwn(target, "field")) checkPointer(target.field, targetBase, "target");
    else for (const field of listAt(target.fields)) checkPointer(field, targetBase, "target");
    for (const effect of listAt(rule.effects)) checkPointer(objectAt(effect).field, schema?.schema, "effect field");
    for (const assignment of listAt(rule.assign)) checkPointer(objectAt(assignment).field, schema?.schema, "assign field");

    const onCreate = listAt(rule.operations).includes("create");
    for (const expression of ruleExpressions(rule)) {
      if (expressionTooDeep(expression, MAX_EXPRESSION_DEPTH)) {
        add("EXPRESSION_TOO_DEEP", `an expression is nested more than ${MAX_EXPRESSION_DEPTH} deep`, id);
        continue;
      }
      walkExpression(expression, (node, itemBound) => {
        checkCall(node, "rule", id);
        const path = variablePath(node);
        if (!path) return;
        const [root, ...segments] = path;
        const text = stringAt(node.var);
        if (root === "params" && (segments[0] === undefined || !Object.hasOwn(params, segments[0]))) add("PARAM_UNDECLARED", `${text} names no declared param`, id);
        if ((root === "data" || root === "original") && schema && schemaAtPath(schema.document, schema.schema, segments) === undefined) {
          add("PATH_UNKNOWN", `path ${text} is not in the ${entityName} schema`, id);
        }
        if (root === "item" && !itemBound) {
          // The element of forEach, not of a collection operator.
          if (forEach === undefined) add("SCOPE_INVALID", `${text}: item is not in scope outside forEach and collection operators`, id);
          else if (itemSchema !== undefined && schema && schemaAtPath(schema.document, itemSchema, segments) === undefined) {
            add("PATH_UNKNOWN", `path ${text} is not in the item schema of ${forEach}`, id);
          }
        }
        if (root === "original" && onCreate) add("ORIGINAL_ON_CREATE", `${text} is read but the rule applies to create, where there is no original`, id);
        if (root === "arg" || ((root === "value" || root === "field") && !typed)) add("SCOPE_INVALID", `${text} is not in scope in this rule`, id);
      });
    }

    if (rule.kind === "validation") {
      const finding = objectAt(rule.finding);
      const code = stringAt(finding.code);
      const message = stringAt(finding.message);
      const other = codes.get(code);
      if (other !== undefined) add("FINDING_CODE_DUPLICATE", `finding code ${code} is also used by ${other}`, id);
      codes.set(code, id);
      const template = defaultMessages[message];
      if (typeof template !== "string") add("MESSAGE_MISSING", `message ${message} is missing from the default locale ${defaultLocale}`, id);
      else {
        const args = objectAt(finding.args);
        const missing = [...template.matchAll(PLACEHOLDER)].map((match) => match[1]!).filter((name) => !Object.hasOwn(args, name));
        if (missing.length > 0) add("MESSAGE_ARG_MISSING", `message ${message} has placeholders without finding.args: ${missing.join(", ")}`, id);
      }
    }
  }
  return problems;
}

function loadEntitySchemas(entities: JsonObject, loadSchema: SchemaLoader, add: (code: string, message: string) => void): Map<string, EntitySchema> {
  const schemas = new Map<string, EntitySchema>();
  for (const [name, entity] of Object.entries(entities)) {
    const ref = stringAt(objectAt(objectAt(entity).schema).$ref);
    const hash = ref.indexOf("#");
    const file = hash === -1 ? ref : ref.slice(0, hash);
    const fragment = hash === -1 ? "" : ref.slice(hash + 1);
    const document = loadSchema(file);
    const schema = document === undefined ? undefined : resolveFragment(document, fragment);
    if (document === undefined || schema === undefined) add("SCHEMA_REF_UNRESOLVED", `entity ${name}: ${ref} cannot be resolved`);
    else schemas.set(name, { document, schema });
  }
  return schemas;
}

/** The root and segments of a `{var}` node, or undefined for other nodes. */
function variablePath(node: JsonObject): [string, ...string[]] | undefined {
  if (typeof node.var !== "string") return undefined;
  return node.var.split(".") as [string, ...string[]];
}

/** Whether a function reaches itself through the functions it calls. */
function callsItself(name: string, functions: JsonObject): boolean {
  const explored = new Set<string>([name]);
  const pending = [name];
  while (pending.length > 0) {
    const current = pending.pop()!;
    const callees = reachableNames([objectAt(functions[current]).body ?? null], {}).functions;
    for (const callee of callees) {
      if (callee === name) return true;
      if (Object.hasOwn(functions, callee) && !explored.has(callee)) {
        explored.add(callee);
        pending.push(callee);
      }
    }
  }
  return false;
}
