import type { EvaluationPlan } from "../evaluation/evaluation-plan.ts";
import { closestName } from "../names/closest-name.ts";
import type { DeclaredNames } from "../names/declared-names.ts";
import type { JsonObject, JsonValue } from "../value/json-value.ts";
import { SchemaValidator } from "./schema-validator.ts";
import type { RequestWarning } from "./request-warning.ts";

export {
  isSchemaEnforcement,
  RequestMisfitError,
  SCHEMA_ENFORCEMENTS,
  type RequestWarning,
  type RequestWarningCode,
  type SchemaEnforcement,
} from "./request-warning.ts";

/**
 * Checks requests against a plan: the entity is one the ruleset declares, some rule of that
 * entity names the operation, and `data` and `original` validate against the entity's schema when
 * the manifest carries one. What an entity is checked with is gathered once per entity and plan,
 * on first use, so a request that fits costs two lookups and the schema's quick check.
 */
export class RequestFit {
  private readonly names: DeclaredNames;
  /** Declared entities by name; an entity the ruleset does not declare has none. */
  private readonly entities = new Map<string, EntityFit>();

  constructor(private readonly plan: EvaluationPlan) {
    this.names = plan.declaredNames;
  }

  /**
   * How the request does not fit; a request that fits (nearly every one) gets the one shared empty
   * list and allocates nothing, since every request under `warn` comes here.
   */
  warnings(request: JsonObject): readonly RequestWarning[] {
    const entity = this.entityFit(request.entity as string);
    if (
      entity !== null &&
      entity.operations?.has(request.operation as string) === true &&
      (entity.validator === undefined ||
        (fitsMember(entity.validator, request.data) && fitsMember(entity.validator, request.original)))
    )
      return NO_WARNINGS;
    return this.misfits(request, entity);
  }

  /** Every way a request that does not fit falls short, in the order of its members. */
  private misfits(request: JsonObject, entityFit: EntityFit | null): RequestWarning[] {
    const entity = request.entity as string;
    const operation = request.operation as string;
    const operations = entityFit === null ? this.names.operations : entityFit.operations;
    const warnings: RequestWarning[] = [];
    if (entityFit === null)
      warnings.push(
        withSuggestion(
          {
            code: "ENTITY_UNKNOWN",
            pointer: "/entity",
            message: `the ruleset declares no entity ${JSON.stringify(entity)}`,
          },
          closestName(entity, this.names.entities),
        ),
      );
    if (!operations?.has(operation)) {
      const message =
        entityFit !== null
          ? `no rule of ${entity} names the operation ${JSON.stringify(operation)}`
          : `no rule names the operation ${JSON.stringify(operation)}`;
      warnings.push(
        withSuggestion(
          { code: "OPERATION_UNKNOWN", pointer: "/operation", message },
          operations === undefined ? undefined : closestName(operation, operations),
        ),
      );
    }
    if (entityFit?.validator !== undefined) {
      dataWarnings(entityFit.validator, request, "data", warnings);
      dataWarnings(entityFit.validator, request, "original", warnings);
    }
    return warnings;
  }

  /** Null for an entity the ruleset does not declare, which is not kept: a stream of misspelt entities must not grow the map. */
  private entityFit(entity: string): EntityFit | null {
    const known = this.entities.get(entity);
    if (known !== undefined) return known;
    if (!this.names.entities.has(entity)) return null;
    const embedded = this.plan.entitySchemas[entity];
    const fit: EntityFit = {
      operations: this.names.operationsByEntity.get(entity),
      validator:
        embedded === undefined ? undefined : new SchemaValidator(embedded, this.plan.prepareContext.codeGeneration),
    };
    this.entities.set(entity, fit);
    return fit;
  }
}

/** What a declared entity is checked with: the operations its rules name, and its schema's validator when it has one. */
interface EntityFit {
  readonly operations: ReadonlySet<string> | undefined;
  readonly validator: SchemaValidator | undefined;
}

/** What every request that fits is told. */
const NO_WARNINGS: readonly RequestWarning[] = Object.freeze([]);

/** `data` or `original` absent, null, or fitting the schema without a violation. */
function fitsMember(validator: SchemaValidator, value: JsonValue | undefined): boolean {
  return value === undefined || value === null || validator.fits(value) === true;
}

/** How `data` or `original`, when the request has it, does not fit the entity's schema. */
function dataWarnings(
  validator: SchemaValidator,
  request: JsonObject,
  member: "data" | "original",
  warnings: RequestWarning[],
): void {
  const value = request[member];
  if (value === undefined || value === null) return;
  for (const violation of validator.validate(value)) {
    warnings.push(
      withSuggestion(
        { code: "DATA_INVALID", pointer: `/${member}${violation.pointer}`, message: violation.message },
        violation.didYouMean,
      ),
    );
  }
}

function withSuggestion(warning: RequestWarning, didYouMean: string | undefined): RequestWarning {
  if (didYouMean !== undefined) warning.didYouMean = didYouMean;
  return warning;
}
