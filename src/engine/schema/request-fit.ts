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
 * the manifest carries one. Validators are built once per entity and plan, on first use.
 */
export class RequestFit {
  private readonly names: DeclaredNames;
  private readonly validators = new Map<string, SchemaValidator | undefined>();

  private constructor(private readonly plan: EvaluationPlan) {
    this.names = plan.declaredNames;
  }

  static of(plan: EvaluationPlan): RequestFit {
    let fit = fits.get(plan);
    if (fit === undefined) fits.set(plan, (fit = new RequestFit(plan)));
    return fit;
  }

  /**
   * How the request does not fit; a request that fits (nearly every one) gets the one shared empty
   * list and allocates nothing, since every request under `warn` comes here.
   */
  warnings(request: JsonObject): readonly RequestWarning[] {
    const entity = request.entity as string;
    const operation = request.operation as string;
    const entityKnown = this.names.entities.has(entity);
    const operations = entityKnown ? this.names.operationsByEntity.get(entity) : this.names.operations;
    const validator = entityKnown ? this.validator(entity) : undefined;
    if (
      entityKnown &&
      operations?.has(operation) === true &&
      (validator === undefined || (fitsMember(validator, request.data) && fitsMember(validator, request.original)))
    )
      return NO_WARNINGS;
    const warnings: RequestWarning[] = [];
    if (!entityKnown)
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
      const message = entityKnown
        ? `no rule of ${entity} names the operation ${JSON.stringify(operation)}`
        : `no rule names the operation ${JSON.stringify(operation)}`;
      warnings.push(
        withSuggestion(
          { code: "OPERATION_UNKNOWN", pointer: "/operation", message },
          operations === undefined ? undefined : closestName(operation, operations),
        ),
      );
    }
    if (validator !== undefined) {
      dataWarnings(validator, request, "data", warnings);
      dataWarnings(validator, request, "original", warnings);
    }
    return warnings;
  }

  private validator(entity: string): SchemaValidator | undefined {
    let validator = this.validators.get(entity);
    if (validator === undefined && !this.validators.has(entity)) {
      const embedded = this.plan.entitySchemas[entity];
      this.validators.set(entity, (validator = embedded === undefined ? undefined : new SchemaValidator(embedded)));
    }
    return validator;
  }
}

const fits = new WeakMap<EvaluationPlan, RequestFit>();

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
