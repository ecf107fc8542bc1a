/** The string patterns of the reference schema's `$defs` (Name, Id, SemVer, Pointer, Slug) and the other named patterns. */
import { CORE_OPERATOR_NAMES } from "../../engine/expression/operators/core-operator-names.ts";
import { VAR_ROOTS } from "../../engine/expression/variable-roots.ts";
import { Pattern } from "./keywords.ts";

/**
 * The core operators of profile 1.0: the names the engine implements, so that the schema and the
 * evaluator can never disagree about which operators exist.
 */
export const CORE_OPERATORS: readonly string[] = [...CORE_OPERATOR_NAMES];
export const RULE_KINDS = ["validation", "state", "compute", "action"] as const;

export const NAME_PATTERN = "^[A-Za-z][A-Za-z0-9_]*$";
export const ID_PATTERN = "^[a-z](?:[a-z0-9-]|\\.[a-z0-9])*$";
export const SEMVER_PATTERN = "^\\d+\\.\\d+\\.\\d+(-[0-9A-Za-z.-]+)?$";
export const POINTER_PATTERN = "^/[A-Za-z0-9_-](?:[A-Za-z0-9_-]|/[A-Za-z0-9_-])*$";
export const SLUG_PATTERN = "^[a-z0-9][a-z0-9-]*$";
/** Custom operator names (`operators` member names and `op` values). */
export const CUSTOM_OPERATOR_PATTERN = "^x-[a-z][a-z0-9-]*$";
/** Operation names (rule `operations` items and `bindings.openapi[].operations` member names). */
export const OPERATION_PATTERN = "^[a-z][a-z0-9-]*$";
/** Locale tags (`messages` member names). */
export const LOCALE_PATTERN = "^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$";
export const RULE_CASCADE_VERSION_PATTERN = "^1\\.\\d+\\.\\d+$";
export const VERSION_RANGE_PATTERN = "^\\^?\\d+\\.\\d+\\.\\d+$";
export const CHECKSUM_PATTERN = "^sha256:[0-9a-f]{64}$";
export const COMMAND_NAME_PATTERN = "^[a-z](?:[a-z0-9-]|\\.[a-z0-9-])*$";
export const FINDING_CODE_PATTERN = "^[A-Z][A-Z0-9]*-[A-Z0-9](?:[A-Z0-9]|-[A-Z0-9])*$";
export const DURATION_PATTERN =
  "^P(?:(?:\\d+Y(?:\\d+M)?(?:\\d+D)?|\\d+M(?:\\d+D)?|\\d+D)(?:T(?:\\d+H(?:\\d+M)?(?:\\d+S)?|\\d+M(?:\\d+S)?|\\d+S))?|T(?:\\d+H(?:\\d+M)?(?:\\d+S)?|\\d+M(?:\\d+S)?|\\d+S))$";
export { VAR_ROOTS };
export const VAR_PATTERN = `^(${VAR_ROOTS.join("|")})(?:\\.[A-Za-z0-9_-](?:[A-Za-z0-9_-]|\\.[A-Za-z0-9_-])*)?$`;

/** What each pattern asks for, in the words a problem uses (a regular expression helps no author). */
export const PATTERN_WORDS: ReadonlyMap<string, string> = new Map([
  [NAME_PATTERN, "a name: a letter, then letters, digits or _"],
  [ID_PATTERN, "an id of lower-case letters, digits and -, in parts joined by dots (acme.orders)"],
  [SEMVER_PATTERN, "a version such as 1.2.0"],
  [POINTER_PATTERN, "a field pointer such as /customer/email"],
  [SLUG_PATTERN, "lower-case letters, digits and -, such as checkout"],
  [CUSTOM_OPERATOR_PATTERN, "x- followed by lower-case letters, digits and -, such as x-iban"],
  [OPERATION_PATTERN, "an operation name of lower-case letters, digits and -, such as create"],
  [LOCALE_PATTERN, "a locale tag such as en or de-CH"],
  [RULE_CASCADE_VERSION_PATTERN, "a Rule Cascade 1.x version such as 1.0.0"],
  [VERSION_RANGE_PATTERN, "a version such as 1.2.0, or a range such as ^1.2.0"],
  [CHECKSUM_PATTERN, "sha256: followed by 64 lower-case hexadecimal digits"],
  [COMMAND_NAME_PATTERN, "a command name of lower-case letters, digits and -, in parts joined by dots (order.placed)"],
  [FINDING_CODE_PATTERN, "an upper-case code such as ORD-001"],
  [DURATION_PATTERN, "an ISO 8601 duration such as P30D or PT12H"],
  [VAR_PATTERN, `a variable: a root (${VAR_ROOTS.join(", ")}), then member names joined by dots`],
]);

export const Name = Pattern(NAME_PATTERN);
export const Id = Pattern(ID_PATTERN);
export const SemVer = Pattern(SEMVER_PATTERN);
export const Pointer = Pattern(POINTER_PATTERN);
export const Slug = Pattern(SLUG_PATTERN);
