import { basename, resolve } from "node:path";
import { RulesetClaims } from "../workspace/ruleset-claims.ts";
import { LoadedRuleset } from "../engine/bundle/loaded-ruleset.ts";
import type { LoadProblem } from "../engine/bundle/load-problem.ts";
import { checkRequestShape, RequestShapeError } from "../engine/evaluation/request-shape.ts";
import { NO_CUSTOM_OPERATORS, type CustomOperators } from "../engine/expression/custom-operators.ts";
import { didYouMean } from "../engine/names/closest-name.ts";
import type { JsonObject, JsonValue } from "../engine/value/json-value.ts";
import { readBundleFile } from "../workspace/files/read-bundle-file.ts";
import { ruleFileKind } from "../workspace/files/rule-file-kind.ts";
import { isDirectory } from "../workspace/files/source-documents.ts";
import { compileSourceFile } from "../workspace/compile-source-file.ts";
import { checkInputFile } from "./input-file.ts";
import { RuleFileLoader } from "../workspace/rule-file-loader.ts";
import { ruleFilesNamed } from "../workspace/rule-file-checks.ts";

/** What `evaluate` is told the rules are: `--bundle`, `--ruleset`, or nothing (told apart by the name, or a directory). */
export type RulesOption = "bundle" | "source" | undefined;

/** A request whose `ruleset` (or `version`) is not one the rules given hold: the server answers such a request 404. */
export class RulesetChoiceError extends Error {
  override readonly name = "RulesetChoiceError";
  constructor(
    readonly code: "UNKNOWN_RULESET" | "UNKNOWN_VERSION" | "RULESET_REQUIRED",
    message: string,
  ) {
    super(message);
  }
}

/**
 * The rulesets `evaluate` was given, by id (one, or every ruleset of a directory), and the one a
 * request is evaluated against: the one its `ruleset` member names, at the `version` it names,
 * as `POST /evaluations` picks it; without a `ruleset` member, the only one given.
 */
export class EvaluateRules {
  constructor(
    /** The path given, for messages. */
    readonly where: string,
    private readonly rulesets: ReadonlyMap<string, LoadedRuleset>,
  ) {}

  /** Checks the request's shape first, as the server does before it looks the ruleset up. */
  pick(request: JsonValue): { ruleset: LoadedRuleset; request: JsonObject } {
    checkRequestShape(request);
    const named = request.ruleset;
    if (named === undefined || named === null) {
      if (this.rulesets.size === 1) return { ruleset: this.rulesets.values().next().value!, request };
      throw new RulesetChoiceError(
        "RULESET_REQUIRED",
        `the request names no ruleset, and ${this.where} holds ${this.held()}: add a "ruleset" member`,
      );
    }
    if (typeof named !== "string") throw new RequestShapeError("'ruleset' must be a string");
    const ruleset = this.rulesets.get(named);
    if (ruleset === undefined)
      throw new RulesetChoiceError(
        "UNKNOWN_RULESET",
        `the request names ruleset ${named}, but ${this.where} holds ${this.held()}${didYouMean(named, this.rulesets.keys())}`,
      );
    const version = request.version;
    if (version === undefined || version === null) return { ruleset, request };
    if (typeof version !== "string") throw new RequestShapeError("'version' must be a string");
    if (version !== ruleset.version)
      throw new RulesetChoiceError(
        "UNKNOWN_VERSION",
        `the request names version ${version} of ruleset ${named}, but ${this.where} holds version ${ruleset.version}`,
      );
    return { ruleset, request };
  }

  private held(): string {
    const ids = [...this.rulesets.keys()].sort();
    return ids.length === 1 ? `ruleset ${ids[0]}` : `rulesets ${ids.join(", ")}`;
  }
}

/** The rules loaded, or the problems that refuse them and a line saying so. */
export type RulesLoad =
  | { ok: true; rules: EvaluateRules }
  | { ok: false; problems: readonly LoadProblem[]; message: string };

const RULE_FILE_NAMES = "*.ruleset.yaml, *.ruleset.yml, *.ruleset.json";

/**
 * Loads what `evaluate` evaluates against, as `check` loads it: a bundle read, a source compiled
 * in memory, or every ruleset and bundle of a directory (which must all load, as the server
 * requires). Throws InputFileError for a file that cannot be read.
 */
export function loadEvaluateRules(
  path: string,
  option: RulesOption,
  operators: CustomOperators = NO_CUSTOM_OPERATORS,
): RulesLoad {
  if (option === undefined && isDirectory(path)) return loadDirectory(path, operators);
  const kind = option ?? ruleFileKind(basename(path));
  checkInputFile(path, kind === "bundle" ? "the bundle" : kind === "source" ? "the ruleset source" : "the rules file");
  if (kind === "bundle") {
    const read = readBundleFile(path, operators);
    return read.ok
      ? { ok: true, rules: new EvaluateRules(path, new Map([[read.ruleset.id, read.ruleset]])) }
      : refused(read.problems, `${path} cannot be loaded`);
  }
  if (kind === "source") {
    const compilation = compileSourceFile(resolve(path));
    if (!compilation.ok) return refused(compilation.problems, `${path} cannot be compiled`);
    const ruleset = LoadedRuleset.fromBundle(compilation.compiled.bundle, operators);
    return { ok: true, rules: new EvaluateRules(path, new Map([[ruleset.id, ruleset]])) };
  }
  return refused(
    [],
    `${path} is neither a bundle (*.bundle.json) nor a ruleset source (${RULE_FILE_NAMES}) nor a directory; use --bundle or --ruleset to say which it is`,
  );
}

/** Every ruleset of a directory, an id defined twice refused as the server refuses it. */
function loadDirectory(directory: string, operators: CustomOperators): RulesLoad {
  const loader = new RuleFileLoader(operators);
  const rulesets = new Map<string, LoadedRuleset>();
  const problems: LoadProblem[] = [];
  const claims = new RulesetClaims(problems);
  for (const file of ruleFilesNamed([directory])) {
    const loaded = loader.load(file);
    if (!loaded.ok) problems.push(...loaded.problems.map((problem) => ({ ...problem, file: problem.file ?? file })));
    else if (claims.claim(loaded.ruleset.id, file)) rulesets.set(loaded.ruleset.id, loaded.ruleset);
  }
  if (problems.length > 0) return refused(problems, `the rules of ${directory} cannot be loaded`);
  if (rulesets.size === 0)
    return refused([], `no ruleset found in ${directory} (no ${RULE_FILE_NAMES} or *.bundle.json file)`);
  return { ok: true, rules: new EvaluateRules(directory, rulesets) };
}

function refused(problems: readonly LoadProblem[], message: string): RulesLoad {
  return {
    ok: false,
    problems,
    message: problems.length === 0 ? message : `${message} (${problems.length} problem(s))`,
  };
}
