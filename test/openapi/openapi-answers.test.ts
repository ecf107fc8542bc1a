import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { compileSourceFile } from "../../src/workspace/compile-source-file.ts";
import { conformanceOperators } from "../../src/engine/conformance-operators.ts";
import { EngineSession } from "../../src/protocol/engine-session.ts";
import { ruleFilesOf } from "../../src/workspace/files/rule-files-of-directory.ts";
import { CASES_DIR, goldenJsonFiles } from "../support/golden-files.ts";
import { assertConformsToOpenApi, conformingAnswers, type ConformingAnswer } from "../support/openapi-conformance.ts";
import { PROJECT_ROOT } from "../support/run-cli.ts";

/**
 * assertConformsToOpenApi checks answers against openapi.yaml: it accepts what the server, the
 * engine and the compiler really send (bodies from the interop vectors, the golden evaluation
 * cases, the shipped example rules) and refuses each way an answer can stray from the document.
 */

type JsonObject = Record<string, unknown>;
type Answer = ConformingAnswer;

const answers = conformingAnswers();
const byName = (name: string): Answer => {
  const answer = answers.find((candidate) => candidate.name === name);
  if (!answer) throw new Error(`no conforming answer named ${name}`);
  return structuredClone(answer);
};
const conforms = (answer: Answer): void =>
  assertConformsToOpenApi(answer.method, answer.path, answer.status, answer.contentType, answer.body);

describe("assertConformsToOpenApi accepts", () => {
  for (const answer of answers) test(answer.name, () => conforms(answer));
  test("answers to HEAD without a body, also on an unknown path", () => {
    assertConformsToOpenApi("HEAD", "/nowhere", 404, "application/problem+json", undefined);
    assertConformsToOpenApi("HEAD", "/rulesets/a/bundle", 401, "application/problem+json", "");
    assertConformsToOpenApi("HEAD", "/healthz", 200, "application/json", null);
  });
});

describe("assertConformsToOpenApi accepts what the engine and compiler really produce", () => {
  const evaluationFiles = goldenJsonFiles("evaluations") as {
    name: string;
    content: { bundle?: JsonObject; manifest?: JsonObject; cases: JsonObject[] };
  }[];

  test("every golden evaluation result", () => {
    let checked = 0;
    for (const { name, content } of evaluationFiles) {
      for (const evaluation of content.cases) {
        if (evaluation.result === undefined) continue;
        expect(
          () => assertConformsToOpenApi("POST", "/evaluations", 200, "application/json", evaluation.result),
          `${name} ${evaluation.name}`,
        ).not.toThrow();
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(50);
  });

  test("every golden bundle and manifest, and each of their rules", () => {
    for (const { name, content } of evaluationFiles) {
      const bundle = content.bundle;
      const manifests = bundle ? Object.values(bundle.manifests as JsonObject) : [content.manifest];
      if (bundle)
        expect(
          () =>
            assertConformsToOpenApi("GET", `/rulesets/${String(bundle.id)}/bundle`, 200, "application/json", bundle),
          name,
        ).not.toThrow();
      for (const manifest of manifests as JsonObject[]) {
        expect(
          () =>
            assertConformsToOpenApi(
              "GET",
              `/rulesets/${String(manifest.id)}/manifest`,
              200,
              "application/json",
              manifest,
            ),
          name,
        ).not.toThrow();
        for (const rule of manifest.rules as JsonObject[]) {
          expect(
            () =>
              assertConformsToOpenApi(
                "GET",
                `/rulesets/${String(manifest.id)}/rules/${String(rule.id)}`,
                200,
                "application/json",
                rule,
              ),
            `${name} ${String(rule.id)}`,
          ).not.toThrow();
        }
      }
    }
  });

  test("the bundles, manifests and rules compiled from the shipped rules/", () => {
    const files = ruleFilesOf(join(PROJECT_ROOT, "rules")).source;
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const file of files) {
      const compilation = compileSourceFile(file);
      if (!compilation.ok) throw new Error(`${file} does not compile: ${JSON.stringify(compilation.problems)}`);
      const bundle = compilation.compiled.bundle;
      const id = String(bundle.id);
      assertConformsToOpenApi("GET", `/rulesets/${id}/bundle`, 200, "application/json", bundle);
      for (const manifest of Object.values(bundle.manifests as JsonObject) as JsonObject[]) {
        assertConformsToOpenApi(
          "GET",
          `/rulesets/${id}/manifest?channel=${String(manifest.channel)}`,
          200,
          "application/json",
          manifest,
        );
        for (const rule of manifest.rules as JsonObject[])
          assertConformsToOpenApi("GET", `/rulesets/${id}/rules/${String(rule.id)}`, 200, "application/json", rule);
      }
    }
  });

  test("the engine's results for the interop evaluations", () => {
    const interop = join(CASES_DIR, "interop");
    const cases = readFileSync(join(interop, "evaluations.jsonl"), "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line) as { bundle: string; channel: string; request: JsonObject });
    const session = new EngineSession({ operators: conformanceOperators });
    for (const evaluation of cases) {
      const bundle = JSON.parse(readFileSync(join(interop, evaluation.bundle), "utf8"));
      const response = JSON.parse(
        session.handleLine(
          JSON.stringify({ command: "evaluate", bundle, channel: evaluation.channel, request: evaluation.request }),
        )!,
      );
      expect(response.ok).toBe(true);
      assertConformsToOpenApi("POST", "/evaluations", 200, "application/json", response.result);
    }
  });

  test("explained results, both modes, for the golden evaluations and the interop evaluations", () => {
    const session = new EngineSession({ operators: conformanceOperators });
    const interop = join(CASES_DIR, "interop");
    const jobs: JsonObject[] = readFileSync(join(interop, "evaluations.jsonl"), "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line) as { bundle: string; channel: string; request: JsonObject })
      .map((evaluation) => ({
        bundle: JSON.parse(readFileSync(join(interop, evaluation.bundle), "utf8")),
        channel: evaluation.channel,
        request: evaluation.request,
      }));
    for (const { content } of goldenJsonFiles("evaluations") as {
      content: { bundle?: JsonObject; manifest?: JsonObject; cases: JsonObject[] };
    }[]) {
      for (const evaluation of content.cases) {
        if (evaluation.error !== undefined) continue;
        jobs.push({
          ...(content.bundle !== undefined ? { bundle: content.bundle } : { manifest: content.manifest! }),
          channel: evaluation.channel ?? null,
          request: evaluation.request!,
        });
      }
    }
    let explained = 0;
    for (const job of jobs) {
      for (const explain of ["rules", "full"]) {
        const response = JSON.parse(session.handleLine(JSON.stringify({ command: "evaluate", ...job, explain }))!);
        expect(response.ok).toBe(true);
        expect(response.result.explanation).toBeDefined();
        assertConformsToOpenApi("POST", "/evaluations", 200, "application/json", response.result);
        explained++;
      }
    }
    expect(explained).toBeGreaterThan(200);
  });
});

describe("assertConformsToOpenApi rejects", () => {
  const evaluation = (): Answer => byName("evaluation vector 1: shop.orders.order server create -> deny");
  const rejects = (answer: Answer, message: RegExp): void => {
    expect(() => conforms(answer)).toThrow(message);
  };

  test("a decision that is neither allow nor deny", () => {
    const answer = evaluation();
    (answer.body as JsonObject).decision = "maybe";
    rejects(answer, /\/decision must be equal to one of the allowed values/);
  });

  test("a finding without rule", () => {
    const answer = evaluation();
    delete ((answer.body as JsonObject).findings as JsonObject[])[0]!.rule;
    rejects(answer, /\/findings\/0 must have required property 'rule'/);
  });

  test("a finding without args, and a result without the summary members", () => {
    const withoutArgs = evaluation();
    delete ((withoutArgs.body as JsonObject).findings as JsonObject[])[0]!.args;
    rejects(withoutArgs, /required property 'args'/);
    const withoutBlocking = evaluation();
    delete (withoutBlocking.body as JsonObject).blocking;
    rejects(withoutBlocking, /required property 'blocking'/);
  });

  test("a readiness body without loadedAt, or with a loadedAt that is not a date-time", () => {
    const answer = byName("readiness ready");
    delete (answer.body as JsonObject).loadedAt;
    rejects(answer, /required property 'loadedAt'/);
    const notADate = byName("readiness draining");
    (notADate.body as JsonObject).loadedAt = "yesterday";
    rejects(notADate, /\/loadedAt must match format "date-time"/);
    const readyWhileDraining = byName("readiness draining");
    readyWhileDraining.status = 200;
    rejects(readyWhileDraining, /\/status must be equal to constant/);
  });

  test("members the server does not send (closed shapes)", () => {
    const health = byName("health");
    (health.body as JsonObject).uptime = 3;
    rejects(health, /must NOT have additional properties/);
    const problem = byName("unknown ruleset");
    (problem.body as JsonObject).ruleset = "nope";
    rejects(problem, /must NOT have additional properties/);
  });

  test("a batch result with both a result and a problem, a problem without its status, or a result that is not one", () => {
    const both = byName("batch of evaluations");
    const results = (both.body as JsonObject).results as JsonObject[];
    results[0]!.problem = { type: "about:blank", title: "no", status: 400 };
    rejects(both, /\/results\/0 must match exactly one schema in oneOf/);
    const ok = byName("batch of evaluations");
    ((ok.body as JsonObject).results as JsonObject[])[2]!.status = 200;
    rejects(ok, /\/results\/2 must match exactly one schema in oneOf/);
    const notAResult = byName("batch of evaluations");
    delete (((notAResult.body as JsonObject).results as JsonObject[])[1]!.result as JsonObject).decision;
    rejects(notAResult, /\/results\/1/);
  });

  test("a 409 without the served checksum, and a checksum of the wrong form", () => {
    const answer = byName("pinned checksum no longer served");
    delete (answer.body as JsonObject).checksum;
    rejects(answer, /required property 'checksum'/);
    const list = byName("ruleset list");
    ((list.body as JsonObject).rulesets as JsonObject[])[0]!.checksum = "sha256:ABC";
    rejects(list, /\/rulesets\/0\/checksum must match pattern/);
  });

  test("a rule in a manifest without origin, and a ruleset status outside the lifecycle", () => {
    const manifest = byName("client manifest");
    delete ((manifest.body as JsonObject).rules as JsonObject[])[0]!.origin;
    rejects(manifest, /\/rules\/0 must have required property 'origin'/);
    const list = byName("ruleset list");
    ((list.body as JsonObject).rulesets as JsonObject[])[1]!.status = "published";
    rejects(list, /\/rulesets\/1\/status must be equal to one of the allowed values/);
  });

  test("the wrong media type, a body where none is described, a status that is not described", () => {
    const problem = byName("unknown ruleset");
    problem.contentType = "application/json";
    rejects(problem, /media type application\/json is not described/);
    const notModified = byName("manifest not modified");
    notModified.body = { status: "ok" };
    rejects(notModified, /has no body/);
    const head = byName("HEAD of the manifest");
    head.body = { id: "x" };
    rejects(head, /has no body/);
    rejects({ ...byName("health"), status: 418 }, /describes no response 418/);
    rejects({ ...byName("health"), contentType: null }, /no Content-Type/);
  });

  test("an unknown path or an unlisted method answered with anything but 404 or 405", () => {
    rejects({ ...byName("health"), path: "/nowhere" }, /no path of openapi.yaml matches/);
    rejects({ ...byName("health"), method: "DELETE" }, /has no DELETE operation/);
  });
});
