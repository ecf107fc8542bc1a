/**
 * What a request check says, apart from how it checks (request-fit.ts): results and hosts name
 * these types without taking in the validators.
 */
/**
 * Whether requests are checked against the ruleset (DECISIONS.md, Extensions, round 3): `off`
 * evaluates as the specification says; `warn` evaluates and adds `warnings`; `reject` refuses a
 * request that does not fit, evaluating nothing.
 */
export type SchemaEnforcement = "off" | "warn" | "reject";

export const SCHEMA_ENFORCEMENTS: readonly SchemaEnforcement[] = ["off", "warn", "reject"];

export function isSchemaEnforcement(value: unknown): value is SchemaEnforcement {
  return value === "off" || value === "warn" || value === "reject";
}

export type RequestWarningCode = "ENTITY_UNKNOWN" | "OPERATION_UNKNOWN" | "DATA_INVALID";

/** One way a request does not fit the ruleset; `pointer` is into the request (`/data/amount`). */
export interface RequestWarning {
  code: RequestWarningCode;
  pointer?: string;
  message: string;
  didYouMean?: string;
}

/** A request refused under `reject`: the warnings say why. */
export class RequestMisfitError extends Error {
  readonly code = "REQUEST_MISFIT" as const;
  override readonly name = "RequestMisfitError";
  constructor(readonly warnings: readonly RequestWarning[]) {
    super(
      `the request does not fit the ruleset: ${warnings.map((warning) => `${warning.pointer ?? ""} ${warning.message}`.trim()).join("; ")}`,
    );
  }
}
