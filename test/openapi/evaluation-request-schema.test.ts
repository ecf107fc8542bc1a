import { describe, expect, test } from "bun:test";
import { goldenJsonFiles } from "../support/golden-files.ts";
import { componentSchemaValidator } from "../support/openapi-conformance.ts";

/** openapi.yaml's EvaluationRequest schema against the requests the engine takes and refuses. */

type JsonObject = Record<string, unknown>;

describe("the EvaluationRequest schema", () => {
  const validate = componentSchemaValidator("EvaluationRequest");
  const shapeCases = goldenJsonFiles("evaluations").find((file) => file.name === "request-shape.json")!.content as {
    cases: JsonObject[];
  };

  test("accepts the requests of the golden evaluations (with the ruleset id)", () => {
    for (const { name, content } of goldenJsonFiles("evaluations") as {
      name: string;
      content: { cases: JsonObject[] };
    }[]) {
      for (const evaluation of content.cases) {
        if (evaluation.error !== undefined) continue;
        const request = { ruleset: "acme.test", ...(evaluation.request as JsonObject) };
        if (evaluation.channel !== undefined) Object.assign(request, { channel: evaluation.channel });
        expect(validate(request), `${name} ${String(evaluation.name)}: ${JSON.stringify(validate.errors)}`).toBe(true);
      }
    }
  });

  test("rejects every request the engine refuses for its shape (nesting depth is beyond a schema)", () => {
    for (const evaluation of shapeCases.cases) {
      const error = evaluation.error as { message: string } | undefined;
      if (error === undefined || error.message.includes("nested more than")) continue;
      const request = evaluation.request;
      const withRuleset =
        typeof request === "object" && request !== null && !Array.isArray(request)
          ? { ruleset: "acme.test", ...request }
          : request;
      expect(validate(withRuleset), String(evaluation.name)).toBe(false);
    }
  });

  test("requires ruleset; channel is client, server or null", () => {
    expect(validate({ entity: "Order", operation: "create" })).toBe(false);
    expect(
      validate({ ruleset: "a", entity: "Order", operation: "create", channel: null, view: null, actor: null }),
    ).toBe(true);
    expect(validate({ ruleset: "a", entity: "Order", operation: "create", channel: "browser" })).toBe(false);
  });
});
