import { ChannelUnavailableError } from "../engine/bundle/channel.ts";
import { LoadedRuleset, type EngineOptions } from "../engine/bundle/loaded-ruleset.ts";
import { LoadError } from "../engine/bundle/load-problem.ts";
import { EvaluationError } from "../engine/errors.ts";
import { requestShapeProblem } from "../engine/evaluation/request-shape.ts";
import {
  customOperatorsFrom,
  type CustomOperator,
  type CustomOperators,
} from "../engine/expression/custom-operators.ts";
import { evaluateExpression, type ExpressionEnvironment } from "../engine/expression/evaluate-expression.ts";
import type { JsonObject, JsonValue } from "../engine/value/json-value.ts";
import { parseJson } from "../engine/value/parse-json.ts";
import { isJsonObject } from "../engine/value/json-access.ts";
import { compileRuleset } from "../compiler/compile-ruleset.ts";
import { BUNDLE_FORMAT_VERSION, ENGINE_NAME, ENGINE_VERSION, SPECIFICATION_VERSION } from "../version.ts";
import { badRequest, ProtocolError } from "./protocol-error.ts";
import {
  optionalChannel,
  optionalExplain,
  optionalEnvironment,
  optionalObject,
  requiredObject,
  requiredSource,
  type Source,
} from "./request-members.ts";

/**
 * One run of the engine protocol (specification section 13): JSON Lines in, one response line per
 * request out, in order. The session keeps the rulesets that `load` gave it.
 */
export interface EngineSessionOptions {
  readonly operators?: Readonly<Record<string, CustomOperator>>;
  /** Whether the engine may compile rules to JavaScript functions (generated-code.ts); default true. */
  readonly codeGeneration?: boolean;
}

export class EngineSession {
  private readonly operators: CustomOperators;
  private readonly engine: EngineOptions;
  private readonly rulesets = new Map<string, LoadedRuleset>();

  constructor(options: EngineSessionOptions = {}) {
    this.operators = customOperatorsFrom(options.operators);
    this.engine = { codeGeneration: options.codeGeneration ?? true };
  }

  /** The response line for one input line, or undefined for a blank line (which gets none). */
  handleLine(line: string): string | undefined {
    const text = line.endsWith("\r") ? line.slice(0, -1) : line;
    if (text.trim() === "") return undefined;
    const parsed = parseJson(text);
    if (!parsed.ok) return JSON.stringify({ ok: false, error: { code: "BAD_REQUEST", message: parsed.message } });
    const request = parsed.value;
    const id = isJsonObject(request) && Object.hasOwn(request, "id") ? { id: request.id } : {};
    try {
      if (!isJsonObject(request)) badRequest("a request must be a JSON object");
      const result = this.handle(request);
      return JSON.stringify({ ...id, ok: true, result });
    } catch (error) {
      return JSON.stringify({ ...id, ok: false, error: errorBody(error) });
    }
  }

  private handle(request: JsonObject): JsonValue {
    const command = request.command;
    if (typeof command !== "string") badRequest("'command' must be a string");
    switch (command) {
      case "version":
        return this.version();
      case "expression":
        return this.expression(request);
      case "load":
        return this.load(request);
      case "manifest": {
        const source = requiredSource(request);
        const channel = optionalChannel(request);
        return this.resolve(source).manifest(channel);
      }
      case "evaluate": {
        const source = requiredSource(request);
        const channel = optionalChannel(request);
        const explain = optionalExplain(request);
        // The shape is checked here, before the source is resolved, so a malformed request is BAD_REQUEST first.
        const problem = requestShapeProblem(request.request);
        if (problem !== undefined) badRequest(problem);
        const options = explain === undefined ? {} : { explain };
        return this.resolve(source).evaluateChecked(
          request.request as JsonObject,
          channel,
          undefined,
          options,
        ) as unknown as JsonValue;
      }
      case "compile":
        return this.compile(request);
      default:
        return badRequest(`unknown command ${JSON.stringify(command)}`);
    }
  }

  private load(request: JsonObject): JsonValue {
    const bundle = optionalObject(request, "bundle");
    const manifest = optionalObject(request, "manifest");
    if (!bundle && !manifest) badRequest("load needs a 'bundle' or a 'manifest'");
    const ruleset = this.read({ bundle, manifest });
    this.rulesets.set(ruleset.id, ruleset);
    return {
      ruleset: ruleset.id,
      version: ruleset.version,
      checksum: ruleset.checksum,
      channels: ruleset.channels,
      missingOperators: ruleset.missingOperators(),
    };
  }

  /** An inline bundle wins over an inline manifest, which wins over a loaded ruleset id. */
  private resolve(source: Source): LoadedRuleset {
    if (source.bundle || source.manifest) return this.read(source);
    const ruleset = this.rulesets.get(source.ruleset!);
    if (!ruleset) throw new ProtocolError("UNKNOWN_RULESET", `no ruleset ${JSON.stringify(source.ruleset)} was loaded`);
    return ruleset;
  }

  private read(source: Source): LoadedRuleset {
    return source.bundle
      ? LoadedRuleset.fromBundle(source.bundle, this.operators, this.engine)
      : LoadedRuleset.fromManifest(source.manifest!, this.operators, this.engine);
  }

  /** Compiler level: a document, its registry and its schema documents to a bundle. */
  private compile(request: JsonObject): JsonValue {
    const document = requiredObject(request, "document");
    const registry = optionalObject(request, "registry") ?? {};
    const schemaDocuments = optionalObject(request, "schemaDocuments");
    // Entity schemas are found by the file part of their $ref; without schemaDocuments the path checks are skipped.
    const loadSchema =
      schemaDocuments &&
      ((file: string) =>
        Object.hasOwn(schemaDocuments, file) ? { ok: true as const, document: schemaDocuments[file]! } : undefined);
    return compileRuleset(document, { registry: new Map(Object.entries(registry)), loadSchema }).bundle;
  }

  private version(): JsonValue {
    return {
      engine: ENGINE_NAME,
      engineVersion: ENGINE_VERSION,
      ruleCascade: SPECIFICATION_VERSION,
      bundle: BUNDLE_FORMAT_VERSION,
      levels: ["evaluator", "compiler"],
      operators: [...this.operators.keys()].sort(),
    };
  }

  private expression(request: JsonObject): JsonValue {
    if (!Object.hasOwn(request, "expr")) badRequest("'expr' is required");
    const env = optionalEnvironment(request) ?? {};
    const functions = optionalObject(request, "functions");
    return evaluateExpression(request.expr, env as ExpressionEnvironment, {
      functions,
      operators: this.operators,
      ...this.engine,
    });
  }
}

function errorBody(error: unknown): JsonObject {
  if (error instanceof ProtocolError) {
    return error.problems
      ? { code: error.code, message: error.message, problems: error.problems.map((p) => ({ ...p })) }
      : { code: error.code, message: error.message };
  }
  if (error instanceof EvaluationError) return { code: error.code, message: error.message };
  if (error instanceof LoadError)
    return { code: error.code, message: error.message, problems: error.problems.map((p) => ({ ...p })) };
  if (error instanceof ChannelUnavailableError) return { code: error.code, message: error.message };
  // Anything else is a bug in the engine; answer it like an evaluation that failed closed.
  return {
    code: "EVALUATION_ERROR",
    message: `internal error: ${error instanceof Error ? error.message : String(error)}`,
  };
}
