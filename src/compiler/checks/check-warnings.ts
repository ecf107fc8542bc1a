import { closestName } from "../../engine/names/closest-name.ts";
import { isJsonObject, listAt, objectAt, stringAt } from "../../engine/value/json-access.ts";
import type { JsonObject, JsonValue } from "../../engine/value/json-value.ts";
import { valuesEqual } from "../../engine/value/value-equality.ts";
import { placedRuleExpressions } from "../expressions/expression-walk.ts";
import {
  locateProblems,
  placeIn,
  type DocumentSources,
  type Located,
  type PlacedProblem,
} from "../problems/problem-place.ts";
import type { DeclarationPlaces } from "../resolve/declaration-places.ts";
import type { ResolvedRuleset } from "../resolve/resolve-ruleset.ts";
import type { MemberPart } from "../source/source-position.ts";
import { pointerSegments } from "./entity-schema.ts";
import { loadEntitySchemas } from "./entity-schemas.ts";
import { operationWarnings } from "./operation-warnings.ts";
import {
  expectedArgument,
  PARAM_KINDS,
  article,
  literalSuggestion,
  suggestionText,
  listedValues,
} from "./expected-kinds.ts";
import type { SchemaLoader } from "./schema-file.ts";
import {
  elementView,
  enumOfView,
  kindOf,
  kindOfView,
  PathViews,
  viewAtPath,
  viewOf,
  type SchemaView,
  type ValueKind,
} from "./schema-types.ts";
import { COLLECTION_OPERATORS, OPERATOR_RESULT_KINDS } from "../../engine/expression/operators/operator-kinds.ts";

/**
 * The check warnings: rules that load but can never be right, found by reading each expression
 * against the types its entity's JSON Schema (and the declared params) give the paths it reads.
 * Warnings never refuse a load; `check --strict` makes them problems.
 *
 * - TYPE_MISMATCH: an operator given a value of a kind it does not accept (an evaluation error
 *   whenever it runs), or `eq`, `ne`, `in` comparing values of kinds that are never equal.
 * - ENUM_VALUE_UNKNOWN: a literal compared with a field whose schema lists its values, that is not one of them.
 * - RULE_UNREACHABLE: a rule whose `when` (or a conjunct of it) is false for every value the schema allows.
 * - OPERATION_UNUSED: an operation of a rule that nothing else names (operation-warnings.ts).
 *
 * Only what is certain is said. A path's kind comes from its schema (`properties`, `items`, local
 * `$ref` and `allOf` followed; `null` beside one type adds nothing, as any absent field is null);
 * a path whose schema gives no single kind (a union of types, `oneOf`, `anyOf`, neither `type` nor
 * `enum`, a `$ref` into another file, a path the schema does not describe) is unknown and never
 * warned about, and so are `ctx`, `actor`, `value`, function results and custom operators.
 * Function bodies are not read: their arguments have no schema.
 */

export const WARNING_CODES: readonly string[] = [
  "TYPE_MISMATCH",
  "ENUM_VALUE_UNKNOWN",
  "RULE_UNREACHABLE",
  "OPERATION_UNUSED",
];

/**
 * A warning as the checks first find it. `didYouMean` is what the message suggests, as it writes
 * it: an enum value (`salary`) or a literal of the kind wanted (`15000`, `"15000"`).
 */
export interface PlacedWarning extends PlacedProblem {
  readonly didYouMean?: string;
}

/** What is known of an expression's value. */
interface Known {
  /** The one kind of value it has besides null, when certain. */
  readonly kind?: ValueKind;
  /** Whether it may also be null (a path that may be absent). */
  readonly nullable: boolean;
  /** How a message names it: `data.amount`, `"15000"`, `the result of len`. */
  readonly text: string;
  /** Where the kind comes from, appended to `is a number`: ` in the Transfer schema`. */
  readonly origin: string;
  /** Its place inside the rule, for a warning about it. */
  readonly path: readonly string[];
  readonly literal?: { readonly value: JsonValue };
  /** The schema of a path, for its listed values and the elements of a list. */
  readonly view?: SchemaView;
  /** What is known of any element, for a list. */
  readonly element?: Known;
  /** The elements one by one, for a `list` call. */
  readonly items?: readonly Known[];
  /** For a boolean: why it is false for every value the schema allows. */
  readonly never?: string;
}

const UNKNOWN_RESULT = (text: string, path: readonly string[]): Known => ({ nullable: true, text, origin: "", path });

/**
 * The warnings of a resolved ruleset, each with its rule id and, where `places` are given, its
 * place in the declaring document. Entity schemas are read with `loadSchema`; without it only
 * literals and params are known.
 */
export function staticWarnings(
  resolved: JsonObject,
  places: DeclarationPlaces | undefined,
  loadSchema?: SchemaLoader,
): PlacedWarning[] {
  const warnings: PlacedWarning[] = [];
  const entities = objectAt(resolved.entities);
  // The compile has already reported every schema that does not resolve.
  const schemas = loadSchema
    ? loadEntitySchemas(
        entities,
        loadSchema,
        () => undefined,
        () => undefined,
      )
    : new Map();
  const params = objectAt(resolved.params);
  // Each entity's schema view, and the views at the paths its rules read, found once for all rules.
  const entityViews = new Map<string, PathViews | undefined>();
  const viewsOf = (name: string): PathViews | undefined => {
    if (!entityViews.has(name)) {
      const entity = schemas.get(name);
      entityViews.set(name, entity ? new PathViews(viewOf(entity.document, entity.schema)) : undefined);
    }
    return entityViews.get(name);
  };

  for (const entry of listAt(resolved.rules)) {
    const rule = objectAt(entry);
    const id = stringAt(rule.id);
    const declared = places?.rules.get(id);
    const warn = (
      code: string,
      message: string,
      path: readonly string[],
      part: MemberPart = "value",
      didYouMean?: string,
    ): void => {
      const place = declared && placeIn(declared.document, [...declared.path, ...path], part);
      warnings.push({
        code,
        message,
        rule: id,
        ...(place === undefined ? {} : { place }),
        ...(didYouMean === undefined ? {} : { didYouMean }),
      });
    };
    const target = objectAt(rule.target);
    const entityName = stringAt(target.entity);
    const entity = Object.hasOwn(target, "entity") ? schemas.get(entityName) : undefined;
    const dataView = entity ? viewsOf(entityName) : undefined;
    const inSchema = ` in the ${entityName} schema`;
    const forEach = typeof rule.forEach === "string" ? rule.forEach : undefined;
    const forEachItem = forEach !== undefined && dataView ? dataView.at([...pointerSegments(forEach), "0"]) : undefined;

    /** What a schema view tells of a value read at `path`. */
    const fromView = (view: SchemaView | undefined, text: string, path: readonly string[]): Known => {
      const kind = view && kindOfView(view);
      const elements = view && kind === "list" ? elementView(view) : undefined;
      return {
        ...(kind === undefined ? {} : { kind }),
        nullable: true,
        text,
        origin: inSchema,
        path,
        ...(view === undefined ? {} : { view }),
        ...(elements === undefined ? {} : { element: fromView(elements, `an element of ${text}`, path) }),
      };
    };

    const variable = (node: JsonObject, path: readonly string[], item: Known | undefined): Known => {
      const text = stringAt(node.var);
      const [root, ...segments] = text.split(".");
      const at = [...path, "var"];
      if ((root === "data" || root === "original") && dataView) return fromView(dataView.at(segments), text, at);
      if (root === "item" && item !== undefined) {
        if (segments.length === 0) return { ...item, text, path: at };
        if (item.view) return fromView(viewAtPath(item.view, segments), text, at);
      }
      if (root === "params" && segments.length === 1) {
        const declaredType = objectAt(params[segments[0]!]).type;
        const kinds = typeof declaredType === "string" ? PARAM_KINDS[declaredType] : undefined;
        if (kinds) {
          const [kind, element] = kinds;
          const origin = ` (declared ${declaredType})`;
          return {
            kind,
            nullable: true,
            text,
            origin,
            path: at,
            ...(element === undefined
              ? {}
              : { element: { kind: element, nullable: false, text: `an element of ${text}`, origin, path: at } }),
          };
        }
      }
      return UNKNOWN_RESULT(text, at);
    };

    /** Whether two values can ever be equal; the reason they cannot otherwise, warned about once. */
    const compare = (op: string, a: Known, b: Known): string | undefined => {
      const [literal, other] = b.literal ? [b, a] : [a, b];
      // A null literal asks whether a value is absent, which any path may be.
      if (literal.literal?.value === null || other.literal?.value === null) return undefined;
      if (a.kind !== undefined && b.kind !== undefined && a.kind !== b.kind && !(a.nullable && b.nullable)) {
        const suggestion = literal.literal ? literalSuggestion(literal.literal.value, [other.kind!]) : undefined;
        const outcome = op === "ne" ? "ne is always true" : op === "in" ? "in never matches it" : "eq is never true";
        warn(
          "TYPE_MISMATCH",
          `${other.text} is ${article(other.kind!)}${other.origin} and ${literal.text} ${article(literal.kind!)}${literal.origin}: never equal, so ${outcome}${suggestionText(suggestion)}`,
          literal.path,
          "value",
          suggestion,
        );
        return `${other.text} (${article(other.kind!)}) is never ${literal.text} (${article(literal.kind!)})`;
      }
      if (!literal.literal || !other.view || other.literal) return undefined;
      const values = enumOfView(other.view);
      const value = literal.literal.value;
      if (values === undefined || values.some((allowed) => valuesEqual(allowed, value))) return undefined;
      const closest =
        typeof value === "string"
          ? closestName(
              value,
              values.filter((allowed): allowed is string => typeof allowed === "string"),
            )
          : undefined;
      warn(
        "ENUM_VALUE_UNKNOWN",
        `${other.text} is never ${literal.text}: the ${entityName} schema allows ${listedValues(values)}${suggestionText(closest)}`,
        literal.path,
        "value",
        closest,
      );
      return `${other.text} is never ${literal.text}`;
    };

    /** Checks a node and what it holds; what is known of its value. */
    const check = (node: JsonValue | undefined, path: readonly string[], item: Known | undefined): Known => {
      if (!isJsonObject(node)) {
        if (node === undefined || Array.isArray(node)) return UNKNOWN_RESULT("a value", path);
        return {
          kind: kindOf(node),
          nullable: false,
          text: JSON.stringify(node),
          origin: "",
          path,
          literal: { value: node },
        };
      }
      if (typeof node.var === "string") return variable(node, path, item);
      const args = listAt(node.args);
      const argPath = (index: number): string[] => [...path, "args", String(index)];
      if (typeof node.op !== "string") {
        args.forEach((arg, index) => check(arg, argPath(index), item));
        return UNKNOWN_RESULT(`the result of ${stringAt(node.fn)}`, path);
      }
      const op = node.op;
      const known: Known[] = [];
      if (COLLECTION_OPERATORS.has(op)) {
        const list = check(args[0], argPath(0), item);
        known.push(list);
        args
          .slice(1)
          .forEach((arg, index) =>
            known.push(check(arg, argPath(index + 1), list.element ?? UNKNOWN_RESULT("item", path))),
          );
      } else args.forEach((arg, index) => known.push(check(arg, argPath(index), item)));

      let fits = true;
      known.forEach((argument, index) => {
        const expected = expectedArgument(op, index);
        if (expected === undefined || argument.kind === undefined || expected.kinds.includes(argument.kind)) return;
        fits = false;
        const suggestion = argument.literal ? literalSuggestion(argument.literal.value, expected.kinds) : undefined;
        warn(
          "TYPE_MISMATCH",
          `${op} expects ${expected.words}, but ${argument.text} is ${article(argument.kind)}${argument.origin}: an evaluation error whenever it runs${suggestionText(suggestion)}`,
          argument.path,
          "value",
          suggestion,
        );
      });

      const text = `the result of ${op}`;
      let never: string | undefined;
      if ((op === "eq" || op === "ne") && known.length === 2) {
        const reason = compare(op, known[0]!, known[1]!);
        if (op === "eq") never = reason;
      }
      if (op === "in" && known.length === 2 && fits) {
        const [needle, haystack] = known as [Known, Known];
        if (haystack.items !== undefined) {
          const reasons = haystack.items.map((element) => compare("in", needle, element));
          if (reasons.length > 0 && reasons.every((reason) => reason !== undefined)) never = reasons.join("; ");
        } else if (haystack.element !== undefined && needle.literal) {
          never = compare("in", needle, { ...haystack.element, path: needle.path });
        }
      }
      if (op === "and") never = known.find((argument) => argument.never !== undefined)?.never;
      if (op === "or" && known.length > 0 && known.every((argument) => argument.never !== undefined))
        never = known.map((argument) => argument.never).join("; ");

      if (op === "list") return { kind: "list", nullable: false, text, origin: "", path, items: known };
      if (op === "filter" && known[0]?.element)
        return { kind: "list", nullable: false, text, origin: "", path, element: known[0].element };
      if (op === "if" || op === "coalesce") {
        // The kind of the value given, when every branch that is not a null literal has the same one.
        const branches = op === "if" ? known.slice(1) : known;
        const values = branches.filter((branch) => branch.literal?.value !== null);
        const kinds = new Set(values.map((branch) => branch.kind));
        const kind = kinds.size === 1 ? [...kinds][0] : undefined;
        const nullable =
          values.length < branches.length ||
          (op === "if" ? values.some((branch) => branch.nullable) : values.every((branch) => branch.nullable));
        return { ...(kind === undefined ? {} : { kind }), nullable, text, origin: "", path };
      }
      const kind = OPERATOR_RESULT_KINDS[op];
      if (kind === undefined) return UNKNOWN_RESULT(text, path);
      return { kind, nullable: false, text, origin: "", path, ...(never === undefined ? {} : { never }) };
    };

    const forEachKnown = forEachItem ? fromView(forEachItem, "item", []) : undefined;
    for (const { expression, path } of placedRuleExpressions(rule)) {
      const known = check(expression, path, forEachKnown);
      if (path[0] === "when" && known.never !== undefined) {
        const always = entity ? `false for every value the ${entityName} schema allows` : "never true";
        warn("RULE_UNREACHABLE", `the rule never applies: its when is ${always} (${known.never})`, ["when"], "key");
      }
    }
  }
  return warnings;
}

/** A warning as a compile result carries it: located like a load problem, with the suggestion as data. */
export type CheckWarning = Located<PlacedWarning>;

/** Warnings per resolved ruleset and schema loader, so a parent is read once however many children it has. */
const warnedRulesets = new WeakMap<ResolvedRuleset, Map<SchemaLoader | undefined, PlacedWarning[]>>();

function warningsOf(ruleset: ResolvedRuleset, loadSchema: SchemaLoader | undefined): PlacedWarning[] {
  let byLoader = warnedRulesets.get(ruleset);
  if (!byLoader) warnedRulesets.set(ruleset, (byLoader = new Map()));
  let warnings = byLoader.get(loadSchema);
  if (!warnings)
    byLoader.set(
      loadSchema,
      (warnings = [...staticWarnings(ruleset.resolved, ruleset.places, loadSchema), ...operationWarnings(ruleset)]),
    );
  return warnings;
}

const samePlace = (a: PlacedWarning, b: PlacedWarning): boolean =>
  a.code === b.code &&
  a.message === b.message &&
  a.place !== undefined &&
  b.place !== undefined &&
  a.place.document === b.place.document &&
  a.place.path.join("/") === b.place.path.join("/");

/**
 * The warnings of a compiled ruleset, located, in the order of their places. A warning its parent
 * (or a parent of it) has too, at the same place in the parent's own file, is the parent's and is
 * left out: each file is told what is wrong in it once. An inherited rule that is only wrong with
 * what the child changes (its entities) is warned about in the child.
 */
export function rulesetWarnings(
  ruleset: ResolvedRuleset,
  loadSchema: SchemaLoader | undefined,
  sources: DocumentSources | undefined,
): CheckWarning[] {
  const inherited = ruleset.parents.flatMap((parent) => warningsOf(parent, loadSchema));
  const own = warningsOf(ruleset, loadSchema).filter(
    (warning) => !inherited.some((other) => samePlace(warning, other)),
  );
  return locateProblems(own, sources);
}
