import { objectAt, stringAt } from "../../engine/value/json-access.ts";
import type { JsonObject, JsonValue } from "../../engine/value/json-value.ts";
import { didYouMean } from "../../engine/names/closest-name.ts";
import type { PlacedProblem, ProblemPlace } from "../problems/problem-place.ts";
import { fragmentOf } from "../source/json-pointer.ts";
import { followFragment } from "./entity-schema.ts";
import type { SchemaLoader } from "./schema-file.ts";

/** An entity's schema: the node its `$ref` names, and the document local `$ref`s are followed in. */
export interface EntitySchema {
  readonly document: JsonValue;
  readonly schema: JsonValue;
}

const UNRESOLVED = "SCHEMA_REF_UNRESOLVED";

/**
 * The schema of each entity whose `$ref` resolves. The others are reported (SCHEMA_REF_UNRESOLVED)
 * where the author can fix them: a schema file that does not parse by its own problems in that
 * file (once, however many entities name it) and at the `$ref`; a fragment the file lacks at the
 * deepest member of it the file has, the message naming the `$ref` that led there.
 */
export function loadEntitySchemas(
  entities: JsonObject,
  loadSchema: SchemaLoader,
  refPlace: (entity: string) => ProblemPlace | undefined,
  report: (problem: PlacedProblem) => void,
): Map<string, EntitySchema> {
  const schemas = new Map<string, EntitySchema>();
  const reportedFiles = new Set<string>();
  for (const [name, entity] of Object.entries(entities)) {
    const ref = stringAt(objectAt(objectAt(entity).schema).$ref);
    const hash = ref.indexOf("#");
    const file = hash === -1 ? ref : ref.slice(0, hash);
    const fragment = hash === -1 ? "" : ref.slice(hash + 1);
    const place = refPlace(name);
    const atRef = place === undefined ? {} : { place };
    const unresolved = (reason: string | undefined): string =>
      `entity ${name}: ${ref} cannot be resolved${reason === undefined ? "" : `: ${reason}`}`;
    const loaded = loadSchema(file);
    if (loaded === undefined || !loaded.ok) {
      if (loaded !== undefined && !reportedFiles.has(file)) loaded.problems.forEach(report);
      reportedFiles.add(file);
      report({ code: UNRESOLVED, message: unresolved(loaded?.reason), ...atRef });
      continue;
    }
    const followed = followFragment(loaded.document, fragment);
    if ("node" in followed) {
      schemas.set(name, { document: loaded.document, schema: followed.node });
      continue;
    }
    const miss = followed.miss;
    const where = miss.found.length === 0 ? "the document" : fragmentOf(miss.found);
    const reason =
      miss.known === undefined
        ? `${where} is not an object`
        : `${where} has no member ${miss.missing}${didYouMean(miss.missing, miss.known)}`;
    const source = loaded.source;
    if (source === undefined) report({ code: UNRESOLVED, message: unresolved(reason), ...atRef });
    else {
      const position = source.locate(miss.found, "key");
      report({
        code: UNRESOLVED,
        message: unresolved(reason),
        file: source.file,
        ...position,
        ...(place === undefined ? {} : { referencedFrom: place }),
      });
    }
  }
  return schemas;
}
