/**
 * The rule server's request and answer types: the component schemas of openapi.yaml as TypeScript,
 * written by src/codegen/ (`bun src/codegen/write-wire-types.ts`). Do not edit: change openapi.yaml
 * and write this file again (test/codegen/wire-types-module.test.ts fails until then).
 *
 * Answers admit the members their schema leaves open. Requests do not: the server ignores a member
 * a request schema does not list, so a misspelt one is a type error here.
 */

/** Identifies an immutable ruleset version; SHA-256 of the canonical resolved ruleset. */
export type Checksum = string;

export interface Health {
  status: "ok";
}

export interface Readiness {
  status: "ready" | "draining" | "not-ready";
  /**
   * With `not-ready`, why: `decision records cannot be written` (records are required,
   * `RULE_SERVER_DECISION_RECORDS_REQUIRED=1`, and the file cannot be written).
   */
  reason?: string;
  /** Time of the last successful load, RFC 3339 in UTC. */
  loadedAt: string;
  /** Number of rulesets served. */
  rulesets: number;
  /**
   * The process that answered. With `RULE_SERVER_PROCESSES` above 1 several processes
   * serve the port, and this names the one the connection reached.
   */
  pid?: number;
  lastReload?: LastReload;
  source?: RulesSource;
}

/**
 * Where the rules served came from: the rules directory (RULES_DIR), an OCI artifact or
 * another rule-server (RULES_SOURCE). `digest` names the release pulled (the OCI manifest's
 * digest, or the digest of the other server's list of rulesets); `signedBy` the ids of the
 * keys that signed its bundles, when RULE_SERVER_TRUSTED_KEYS is set.
 */
export interface RulesSource {
  kind: "directory" | "oci" | "server";
  ref: string;
  digest?: string;
  signedBy?: string[];
}

/**
 * The last reload attempted (SIGHUP, schedule or the embedding API), present once one has
 * been. A refused reload leaves readiness at 200: the previous rules are served.
 */
export interface LastReload {
  at: string;
  trigger: "SIGHUP" | "interval" | "cron" | "api";
  outcome: "reloaded" | "refused";
  /** Why a reload was refused; files are relative to the rules directory. Shown only to a request with the bearer token (the public answer keeps `at`, `trigger` and `outcome`); the log always has them. */
  problems?: {
    code: string;
    message: string;
    file?: string;
    rule?: string;
    [member: string]: unknown;
  }[];
}

/** A problem document (RFC 9457). */
export interface Problem {
  type: "about:blank";
  /** What is wrong, one sentence. */
  title: string;
  /** The HTTP status code. */
  status: number;
  detail?: string;
  /** Only on a 409; the checksum currently served. */
  checksum?: Checksum;
  /** Only on a 422 of an evaluation refused under schema enforcement `reject`. */
  warnings?: RequestWarning[];
  /** Only on a 403; the scope the operation needs. */
  scope?: "evaluate" | "read" | "operate";
}

export type ChecksumConflictProblem = Problem & {
  status?: 409;
  checksum: Checksum;
};

/** One level of a ruleset's position in the hierarchy, least specific first. */
export interface ScopeLevel {
  level: string;
  id: string;
  [member: `x-${string}`]: unknown;
}

/**
 * A served ruleset. `title`, `scope` and `status` are present only for rulesets compiled
 * from source; a ruleset loaded from a bundle has `id`, `version` and `checksum` only.
 */
export interface RulesetEntry {
  /** Ruleset identifier, a dotted name. */
  id: string;
  /** The ruleset's semantic version (`metadata.version`). */
  version: string;
  checksum: Checksum;
  title?: string;
  scope?: ScopeLevel[];
  status?: "draft" | "active" | "deprecated" | "retired";
}

export interface RulesetList {
  /** Sorted by id. */
  rulesets: RulesetEntry[];
}

/** A logical place in the user interface. */
export interface Place {
  page?: string;
  screen?: string;
  section?: string;
  component?: string;
}

/** Narrows the evaluation to one place; members may be null. */
export interface ViewRequest {
  page?: string | null;
  screen?: string | null;
  section?: string | null;
  component?: string | null;
}

/** An acknowledgement or risk acceptance the user gave for a finding. */
export interface ResolutionRequest {
  /** Id of the rule whose finding is resolved. */
  rule: string;
  /** The kind of resolution. */
  type: "acknowledge" | "accept-risk";
  justification?: string | null;
}

/** Caller identity and roles, from the host's own authentication (never from the end user or a model). */
export interface Actor {
  id?: string | null;
  roles?: string[] | null;
}

/**
 * Members not listed are ignored. Optional members may be null, which means absent.
 * `data`, `original`, `actor` and `ctx` may be nested at most 64 deep; numbers must fit an
 * IEEE 754 double. The body may be at most 1 MiB.
 */
export interface EvaluationRequest {
  /** Ruleset id. */
  ruleset: string;
  /** Entity name the rules govern. */
  entity: string;
  /** Operation being checked (`create`, `update`, a custom action name ...). */
  operation: string;
  /** The entity data being submitted; null or absent is `{}`. */
  data?: {
    [member: string]: unknown;
  } | null;
  /** Stored state; null or absent means there is none. */
  original?: {
    [member: string]: unknown;
  } | null;
  /** Ruleset version to use; absent means the one being served. An unknown version is 404. */
  version?: string | null;
  /** `client` evaluates the client manifest (with `trigger` selection); null or absent means `server`. */
  channel?: "client" | "server" | null;
  /** Client moment (`load`, `change`, `blur`, `submit`); passed to the runtime as given. */
  trigger?: string | null;
  view?: ViewRequest | null;
  resolutions?: ResolutionRequest[] | null;
  /**
   * Messages fall back from the full tag to shorter prefixes, then to the ruleset's
   * default locale.
   */
  locale?: string | null;
  actor?: Actor | null;
  /** Extra context (facts such as `ctx.now`). */
  ctx?: {
    [member: string]: unknown;
  } | null;
}

/**
 * A finding of specification 8.1 plus `args`. `RULE-EVALUATION-ERROR` reports a rule that
 * failed or is unsupported (severity `error`, blocking, no fields, optional `detail`).
 */
export interface Finding {
  rule: string;
  /** Finding code, for example `<ORG>-<AREA>-<NNN>`. */
  code: string;
  severity: "info" | "warning" | "error";
  /** Message text in the resolved locale. */
  message: string;
  /** JSON Pointers to the fields concerned. */
  fields: string[];
  /** The place the rule's target names; absent when it names none. */
  location?: Place;
  status: "open" | "acknowledged" | "accepted";
  /** What a user may do about the finding. */
  resolution: "none" | "acknowledge" | "accept-risk";
  blocking: boolean;
  /** The acceptance roles, when the rule lists any. */
  acceptableBy?: string[];
  /** The rule's origin, `<ruleset id>@<version>`. */
  source: string;
  /** The evaluated message arguments (numbers with 15 significant digits); `{}` when the rule has none. */
  args: {
    [member: string]: unknown;
  };
  /** Why a rule could not be evaluated (runtime-specific). */
  detail?: string;
}

/** A computed value (`value`) or the field properties a state rule sets (`state`). */
export type Effect = ValueEffect | StateEffect;

export interface ValueEffect {
  type: "value";
  field: string;
  /** Any JSON value. */
  value: unknown;
  rule: string;
}

export interface StateEffect {
  type: "state";
  field: string;
  /** Field properties (`visible`, `enabled`, `required`, `readOnly`, `x-*`). */
  set: {
    visible?: boolean;
    enabled?: boolean;
    required?: boolean;
    readOnly?: boolean;
    [member: `x-${string}`]: unknown;
  };
  rule: string;
}

/** A command for the host to execute after it has persisted the change; de-duplicate on `idempotencyKey`. */
export interface Command {
  name: string;
  type: "event" | "operation";
  /** Event type or OpenAPI operationId to invoke. */
  ref?: string;
  rule: string;
  /** The rendered key parts joined by `:`. */
  idempotencyKey: string;
  payload: {
    [member: string]: unknown;
  };
}

/**
 * An evaluation request without `data` (a body with `data` is refused), and what is
 * wanted of the decision. Members not listed are ignored; optional members may be null.
 */
export interface PlanRequest {
  ruleset: string;
  version?: string | null;
  entity: string;
  operation: string;
  original?: {
    [member: string]: unknown;
  } | null;
  channel?: "client" | "server" | null;
  trigger?: string | null;
  view?: ViewRequest | null;
  resolutions?: ResolutionRequest[] | null;
  actor?: Actor | null;
  ctx?: {
    [member: string]: unknown;
  } | null;
  /**
   * `allow` (default): no blocking finding and no failure; `deny`: its negation;
   * `{rule: id}`: that rule fires (a finding that is not a failure, an effect, or a
   * command of an allowed evaluation).
   */
  want?: "allow" | "deny" | {
    rule: string;
  } | null;
  /** Adds `sql`, the condition as a WHERE clause of this dialect. */
  dialect?: "sqlite" | "postgresql" | null;
  /**
   * JSON Pointer to the column holding that member's value (NULL for null or missing).
   * Column names are quoted in the clause, never spliced. Other pointers are read from
   * the JSON column `data`.
   */
  columns?: {
    [member: string]: string;
  } | null;
  /**
   * JSON Pointer (one `columns` maps) to the type its column holds besides NULL. The column
   * is then compared as it is, so its indexes apply; without it the clause is exact for a
   * column of any type but reads it through `to_jsonb` (PostgreSQL). SQLite reads 0 and 1
   * of a `boolean` column as false and true.
   */
  columnTypes?: {
    [member: string]: "number" | "string" | "boolean";
  } | null;
}

export interface PlanResult {
  ruleset: string;
  version: string;
  checksum: Checksum;
  /** `always` and `never` when the decision does not depend on the data (then there is no `condition`). */
  kind: "always" | "never" | "conditional";
  exact: boolean;
  condition?: PlanCondition;
  sql?: {
    /** A WHERE clause without `WHERE`: `?` parameters (SQLite) or `$1`, `$2`, ... (PostgreSQL). Never NULL for a row. */
    where: string;
    params: unknown[];
    [member: string]: unknown;
  };
  /** With `exact: false`, the rules to evaluate per row returned. */
  residualRules?: string[];
  [member: string]: unknown;
}

/**
 * A tree over JSON Pointers into `data`, true or false for every `data` (never unknown).
 * `and`/`or` take `args` (two or more), `not` one `arg`. `eq`, `lt`, `lte`, `gt`, `gte`
 * compare `left` (`{pointer}`) with `right` (`{value}` or `{pointer}`) as evaluation does:
 * a pointer that does not resolve reads null; `eq` compares numbers numerically, lists and
 * objects by members, and values of different types are never equal; the orderings are
 * false unless both sides are numbers. `in`: the value at `pointer` equals one of `values`.
 * `isNull`: missing or null. `isType`: of `type`.
 */
export interface PlanCondition {
  op: "and" | "or" | "not" | "eq" | "lt" | "lte" | "gt" | "gte" | "in" | "isNull" | "isType";
  args?: PlanCondition[];
  arg?: PlanCondition;
  left?: PlanOperand;
  right?: PlanOperand;
  pointer?: string;
  values?: (string | number | boolean)[];
  type?: "boolean" | "number" | "string" | "list" | "object";
  [member: string]: unknown;
}

export interface PlanOperand {
  pointer?: string;
  value?: string | number | boolean;
  [member: string]: unknown;
}

export interface EvaluationResult {
  ruleset: string;
  version: string;
  checksum: Checksum;
  /** `deny` when at least one finding is blocking (or an action rule failed), else `allow`. */
  decision: "allow" | "deny";
  findings: Finding[];
  effects: Effect[];
  /** Only after an allowed server evaluation. */
  commands: Command[];
  /** True when at least one finding is blocking. */
  blocking: boolean;
  /**
   * `none` when nothing blocks or some blocking finding has resolution `none`; otherwise
   * `accept-risk` when any blocking finding needs it, else `acknowledge`.
   */
  resolution: "none" | "acknowledge" | "accept-risk";
  /** The sorted union of `acceptableBy` of the blocking findings; absent when empty or when `resolution` is `none` (accepting could not let the operation through). */
  acceptableBy?: string[];
  explanation?: Explanation;
  /**
   * With `RULE_SERVER_SCHEMA_ENFORCEMENT=warn` (the default), present only when the request
   * does not fit the ruleset: an entity it does not declare, an operation no rule of the
   * entity names, or `data`/`original` that the entity's schema refuses.
   */
  warnings?: RequestWarning[];
}

/**
 * `items` are evaluation requests (`EvaluationRequest`) once merged over `defaults`; an item
 * that is not an object, or does not make a valid request, is answered with its own problem.
 */
export interface BatchEvaluationRequest {
  /** Members every item has unless it has its own; an `id` here is ignored. */
  defaults?: {
    [member: string]: unknown;
  } | null;
  items: BatchItem[];
}

/** Members of an evaluation request (see `EvaluationRequest`) and an optional `id`. */
export interface BatchItem {
  /** Echoed in this item's result; not part of the request, never evaluated. */
  id?: string | number | null;
}

export interface BatchEvaluationResult {
  results: BatchItemResult[];
}

/** One item's answer, `result` or `problem` as a single request would be answered. */
export type BatchItemResult = {
  id?: string | number;
  status: 200;
  result: EvaluationResult;
} | {
  id?: string | number;
  status: number;
  problem: Problem;
};

export interface RequestWarning {
  code: "ENTITY_UNKNOWN" | "OPERATION_UNKNOWN" | "DATA_INVALID";
  /** JSON Pointer into the request (`/entity`, `/operation`, `/data/amount`). */
  pointer?: string;
  message: string;
  /** The closest declared entity, operation, member or allowed value. */
  didYouMean?: string;
}

/**
 * Only with `?explain=rules|full`: why the evaluation came out as it did. A client-channel
 * evaluation explains the client manifest's rules only.
 */
export interface Explanation {
  /** Every rule of the manifest evaluated, in manifest order. */
  rules: RuleExplanation[];
  /**
   * The request's entity when the ruleset declares no such entity, and its operation when
   * no rule of that entity names it, each with the closest declared name.
   */
  unmatched?: {
    entity?: UnmatchedName;
    operation?: UnmatchedName;
  };
  /** Each resolution the request gave, in its order, and whether it was applied. */
  resolutions: {
    rule: unknown;
    type: unknown;
    applied: boolean;
    reason?: "rule-unknown" | "no-finding" | "not-blocking" | "type-not-accepted" | "justification-missing" | "role-not-allowed";
  }[];
}

export interface UnmatchedName {
  given: string;
  didYouMean?: string;
}

export interface RuleExplanation {
  rule: string;
  /**
   * `compute`, `state`, `validation`, `action`, or an `x-*` extension kind (such a rule is
   * never run: `not-selected` because `kind`).
   */
  kind: string;
  /**
   * `not-selected` (with `because`, the first selection test failed), `when-false`,
   * `passed` (ran and produced nothing), `fired` (produced a finding, an effect or a
   * command), `error` (failed closed, with `message`).
   */
  status: "not-selected" | "when-false" | "passed" | "fired" | "error";
  /**
   * With `not-selected`: `entity`, `operation`, `channel` (an action rule on a client
   * manifest), `enforcement`, `trigger`, `view`, and beyond those `disabled` (`enabled:
   * false`), `decision` (an action rule not run because the decision was `deny`) and
   * `kind` (a rule of an `x-*` extension kind, which no runtime runs). In
   * `full` mode, for `when-false` and a validation that fired: JSON Pointers from this
   * entry to the leaves that decided (`/when/args/1`).
   */
  because?: "disabled" | "entity" | "operation" | "channel" | "enforcement" | "trigger" | "view" | "decision" | "kind" | string[];
  /** With `error`, why the rule could not be evaluated. */
  message?: string;
  /** A rule run per item or bound field, the pointer of the one shown. */
  field?: string;
  /**
   * Why the rule has its status, in one sentence for people, the words the rules explorer
   * shows beside it (`it runs on update, not on create`, `its condition, data.urgent ==
   * true, is false, so it did not run`); expressions in it are written as text.
   */
  summary: string;
  when?: ExplainedNode;
  assert?: ExplainedNode;
  assign?: ExplainedNode[];
  args?: {
    [member: string]: ExplainedNode;
  };
  commands?: {
    idempotencyKey: ExplainedNode[];
    payload: {
      [member: string]: ExplainedNode;
    };
  }[];
}

/**
 * One evaluated expression node (`full` mode): the expression as the manifest holds it and
 * as text, its value (or `skipped`, never evaluated; or `error`), its arguments in order. A
 * collection operator shows its body for one `item` (the first failing item of `all`, the
 * first matching one of `some` and `none`, else the first). Strings past 200 characters and
 * lists or objects past 50 members are cut and marked `truncated`.
 */
export interface ExplainedNode {
  expr: unknown;
  /**
   * `expr` written as text, as rules may be written (`data.amount <=
   * params.singleTransferLimit`); a part no text can hold is shown as its JSON in
   * backquotes.
   */
  text: string;
  value?: unknown;
  skipped?: true;
  error?: string;
  args?: ExplainedNode[];
  item?: number;
  truncated?: true;
}

/** What the rule is about. Extensible with `x-*` members. */
export interface Target {
  entity?: string;
  /** A semantic data type; the rule runs for every field bound to it. */
  type?: string;
  page?: string;
  screen?: string;
  section?: string;
  component?: string;
  field?: string;
  fields?: string[];
  [member: string]: unknown;
}

/**
 * A resolved rule (Rule Cascade 1.0 section 3): as written, with overrides applied, plus
 * `origin` and, when overridden, `overriddenBy`. Kind-specific members (`assert`,
 * `finding`, `effects`, `assign`, `commands` ...) and `x-*` members are open.
 */
export interface Rule {
  id: string;
  kind: "validation" | "state" | "compute" | "action" | `x-${string}`;
  title?: string;
  description?: string;
  severity?: "info" | "warning" | "error";
  target: Target;
  operations: string[];
  triggers?: ("load" | "change" | "blur" | "submit")[];
  enforcement?: "client" | "server" | "both";
  priority?: number;
  enabled?: boolean;
  tags?: string[];
  /** `<ruleset id>@<version>` of the ruleset that defined the rule. */
  origin: string;
  /** `<ruleset id>@<version>` of the ruleset that overrode it. */
  overriddenBy?: string;
  [member: string]: unknown;
}

export interface FunctionDefinition {
  params: string[];
  /** An expression. */
  body: unknown;
  [member: string]: unknown;
}

/**
 * A ruleset rendered for a channel (Rule Cascade 1.0 section 7). The `server` channel holds
 * every rule; the `client` channel only client-safe rules and the functions, params and
 * messages they reach. Both carry the checksum of the full resolved ruleset. In a manifest
 * read from a bundle an absent `params`, `fieldTypes`, `functions` or `messages` is empty,
 * an absent `conflictPolicy` is `fail` and an absent `defaultLocale` is `en`.
 */
export interface Manifest {
  /** Version of the Rule Cascade specification. */
  ruleCascade?: string;
  id: string;
  version: string;
  checksum: Checksum;
  channel: "client" | "server";
  conflictPolicy?: "fail" | "priority";
  defaultLocale?: string;
  /** Parameter name to resolved value. */
  params?: {
    [member: string]: unknown;
  };
  /** Entity to JSON Pointer to type name. */
  fieldTypes?: {
    [member: string]: {
      [member: string]: string;
    };
  };
  functions?: {
    [member: string]: FunctionDefinition;
  };
  /** Sorted names of the custom operators the manifest's rules can reach. */
  operators?: string[];
  rules: Rule[];
  /** Locale to message key to template. */
  messages?: {
    [member: string]: {
      [member: string]: string;
    };
  };
  [member: string]: unknown;
}

/** The compiled, portable form of a ruleset (Rule Cascade 1.0 section 7). */
export interface Bundle {
  /** Version of the bundle format (major version 1). */
  ruleCascadeBundle: `1.${string}`;
  id: string;
  version: string;
  checksum: Checksum;
  manifests: {
    server: Manifest & {
      channel?: "server";
    };
    client: Manifest & {
      channel?: "client";
    };
    [member: string]: unknown;
  };
  [member: string]: unknown;
}
