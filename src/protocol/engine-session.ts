import { EvaluationError } from "../engine/errors.ts";
import { customOperatorsFrom, type CustomOperator, type CustomOperators } from "../engine/expression/custom-operators.ts";
import { evaluateExpression, type ExpressionEnvironment } from "../engine/expression/evaluate-expression.ts";
import type { JsonObject, JsonValue } from "../engine/value/json-value.ts";
import { parseJson } from "../engine/value/parse-json.ts";
import { BUNDLE_FORMAT_VERSION, ENGINE_NAME, ENGINE_VERSION, SPECIFICATION_VERSION } from "../version.ts";
import { badRequest, ProtocolError } from "./protocol-error.ts";
import { isObject, optionalChannel, optionalEnvironment, optionalObject, requiredObject, requiredSource } from "./request-members.ts";

/**
 * One run of the engine protocol (specification section 13): JSON Lines in, one response line per
 * request out, in order. The session keeps the rulesets that `load` gave it.
 */
export interface EngineSessionOptions {
  readonly operators?: Readonly<Record<string, CustomOperator>>;
}

export class EngineSession {
  private readonly operators: CustomOperators;

  constructor(options: EngineSessionOptions = {}) {
    this.operators = customOperatorsFrom(options.operators);
  }

  /** The response line for one input line, or undefined for a blank line (which gets none). */
  handleLine(line: string): string | undefined {
    const text = line.endsWith("\r") ? line.slice(0, -1) : line;
    if (text.trim() === "") return undefined;
    const parsed = parseJson(text);
    if (!parsed.ok) return JSON.stringify({ ok: false, error: { code: "BAD_REQUEST", message: parsed.message } });
    const request = parsed.value;
    const id = isObject(request) && Object.hasOwn(request, "id") ? { id: request.id } : {};
    try {
      if (!isObject(request)) badRequest("a request must be a JSON object");
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
        if (!optionalObject(request, "bundle") && !optionalObject(request, "manifest")) badRequest("load needs a 'bundle' or a 'manifest'");
        return unsupported(command);
      case "manifest":
        requiredSource(request);
        optionalChannel(request);
        return unsupported(command);
      case "evaluate":
        requiredSource(request);
        optionalChannel(request);
        requiredObject(request, "request");
        return unsupported(command);
      case "compile":
        requiredObject(request, "document");
        optionalObject(request, "registry");
        optionalObject(request, "schemaDocuments");
        return unsupported(command);
      default:
        return badRequest(`unknown command ${JSON.stringify(command)}`);
    }
  }

  private version(): JsonValue {
    return {
      engine: ENGINE_NAME,
      engineVersion: ENGINE_VERSION,
      ruleCascade: SPECIFICATION_VERSION,
      bundle: BUNDLE_FORMAT_VERSION,
      levels: ["evaluator"],
      operators: [...this.operators.keys()].sort(),
    };
  }

  private expression(request: JsonObject): JsonValue {
    if (!Object.hasOwn(request, "expr")) badRequest("'expr' is required");
    const env = optionalEnvironment(request) ?? {};
    const functions = optionalObject(request, "functions");
    return evaluateExpression(request.expr, env as ExpressionEnvironment, { functions, operators: this.operators });
  }
}

function unsupported(command: string): never {
  throw new ProtocolError("UNSUPPORTED", `this engine does not implement '${command}' yet`);
}

function errorBody(error: unknown): JsonObject {
  if (error instanceof ProtocolError) {
    return error.problems ? { code: error.code, message: error.message, problems: error.problems.map((p) => ({ ...p })) } : { code: error.code, message: error.message };
  }
  if (error instanceof EvaluationError) return { code: error.code, message: error.message };
  // Anything else is a bug in the engine; answer it like an evaluation that failed closed.
  return { code: "EVALUATION_ERROR", message: `internal error: ${error instanceof Error ? error.message : String(error)}` };
}
