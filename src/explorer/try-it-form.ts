import { RequestShapeError, type EvaluationResult, type JsonObject, type Ruleset } from "../browser/rule-cascade.ts";
import { manifestLocales, PLACE_LEVELS, type ClientManifest, type PlaceLevel } from "./client-manifest.ts";
import { CurlView } from "./curl-view.ts";
import { h, labelled, selectOf, uniqueId, withSuggestions } from "./dom.ts";
import {
  buildRequest,
  JSON_MEMBERS,
  type FormProblem,
  type JsonMember,
  type RequestForm,
} from "./evaluation-request.ts";
import { ResolutionsEditor } from "./resolutions-editor.ts";
import { resultView, type ResultMarks } from "./result-view.ts";
import { ServerCheck } from "./server-check.ts";
import { WhyView } from "./why-view.ts";

const TRIGGERS = ["load", "change", "blur", "submit"];

/** What the editors hold at first: an empty entity, and the current time as `ctx.now`. */
function initialJson(): Record<JsonMember, string> {
  return {
    data: "{\n}",
    original: "",
    actor: '{ "id": "explorer", "roles": [] }',
    ctx: JSON.stringify({ now: new Date().toISOString() }, null, 2),
  };
}

function distinct(values: Iterable<string | undefined>): string[] {
  return [...new Set([...values].filter((value): value is string => value !== undefined))].sort();
}

function textInput(name: string, value = ""): HTMLInputElement {
  const input = h("input", { type: "text", name, autocomplete: "off", spellcheck: "false" });
  input.value = value;
  return input;
}

/**
 * The try-it panel: a request built from the form, evaluated in the page with the client manifest
 * on every keystroke, and (with a token) on the server beside it.
 */
export function tryItForm(manifest: ClientManifest, ruleset: Ruleset): HTMLElement {
  const entities = distinct(manifest.rules.map((rule) => rule.target.entity));
  const operations = distinct(manifest.rules.flatMap((rule) => rule.operations));
  const entity = textInput("entity", entities[0] ?? "");
  const operation = textInput("operation", operations.includes("create") ? "create" : (operations[0] ?? ""));
  const locale = selectOf([
    { value: "", label: `default (${manifest.defaultLocale ?? "none"})` },
    ...manifestLocales(manifest).map((tag) => ({ value: tag, label: tag })),
  ]);
  locale.name = "locale";
  const trigger = selectOf([
    { value: "", label: "any (every trigger)" },
    ...TRIGGERS.map((name) => ({ value: name, label: name })),
  ]);
  trigger.name = "trigger";
  const view = Object.fromEntries(PLACE_LEVELS.map((level) => [level, textInput(`view-${level}`)])) as Record<
    PlaceLevel,
    HTMLInputElement
  >;
  const initial = initialJson();
  const editors = Object.fromEntries(
    JSON_MEMBERS.map((member) => {
      const editor = h("textarea", {
        name: member,
        rows: member === "data" ? "10" : "3",
        spellcheck: "false",
        autocomplete: "off",
        class: "json",
      });
      editor.value = initial[member];
      return [member, editor];
    }),
  ) as Record<JsonMember, HTMLTextAreaElement>;
  const members: readonly FormProblem["member"][] = [...JSON_MEMBERS, "entity", "operation"];
  const errors = Object.fromEntries(
    members.map((member) => [member, h("p", { class: "field-error", id: uniqueId("error"), hidden: true })]),
  ) as unknown as Record<FormProblem["member"], HTMLElement>;
  const controls: Record<FormProblem["member"], HTMLElement> = { ...editors, entity, operation };
  for (const [member, control] of Object.entries(controls))
    control.setAttribute("aria-errormessage", errors[member as FormProblem["member"]].id);

  const placeOfRule = new Map(manifest.rules.map((rule) => [rule.id, rule.target]));
  const marks: ResultMarks = { placeOfRule: (ruleId) => placeOfRule.get(ruleId) };
  const serverCheck = new ServerCheck(new Set(placeOfRule.keys()));
  const curl = new CurlView();
  const why = new WhyView(manifest);
  const resolutions = new ResolutionsEditor(manifest);
  const clientOutput = h("div", { class: "client-output", "aria-live": "polite" });

  const formValues = (): RequestForm => ({
    entity: entity.value,
    operation: operation.value,
    locale: locale.value,
    trigger: trigger.value,
    view: Object.fromEntries(PLACE_LEVELS.map((level) => [level, view[level].value])) as Record<PlaceLevel, string>,
    json: Object.fromEntries(JSON_MEMBERS.map((member) => [member, editors[member].value])) as Record<
      JsonMember,
      string
    >,
    resolutions: resolutions.choices(),
  });

  const showProblems = (problems: readonly FormProblem[]): void => {
    for (const [member, error] of Object.entries(errors)) {
      const problem = problems.find((candidate) => candidate.member === member);
      error.textContent = problem?.message ?? "";
      error.hidden = problem === undefined;
      controls[member as FormProblem["member"]].setAttribute("aria-invalid", String(problem !== undefined));
    }
  };

  const evaluate = (): void => {
    const built = buildRequest(formValues());
    showProblems(built.ok ? [] : built.problems);
    if (!built.ok) {
      const problems = built.problems.map((problem) => problem.message).join("; ");
      clientOutput.replaceChildren(h("p", { class: "error" }, "The request cannot be evaluated: ", problems));
      why.unavailable("Nothing to explain until the request can be evaluated.");
      serverCheck.invalid(problems);
      curl.show(undefined);
      return;
    }
    const body: JsonObject = { ruleset: manifest.id, version: manifest.version, channel: "server", ...built.request };
    let result: EvaluationResult | undefined;
    try {
      // The client channel's explanation names client rules only, which is what a public page may show.
      result = ruleset.evaluate(built.request, "client", { explain: "full" });
      clientOutput.replaceChildren(resultView(result, marks));
      why.show(result, built.request);
    } catch (error) {
      // A request the server would refuse with 400 is refused here with the same title.
      const message =
        error instanceof RequestShapeError
          ? `The server would refuse this request: ${error.message}`
          : `The evaluation failed: ${error instanceof Error ? error.message : String(error)}`;
      clientOutput.replaceChildren(h("p", { class: "error", role: "alert" }, message));
      why.unavailable("Nothing to explain: the request was not evaluated.");
    }
    serverCheck.update(body, result, marks);
    curl.show(body);
  };

  const placeIds = (level: PlaceLevel): string[] => distinct(manifest.rules.map((rule) => rule.target[level]));
  const form = h(
    "form",
    { class: "try-form", "aria-labelledby": "try-heading" },
    h(
      "fieldset",
      { class: "request-fields" },
      h("legend", {}, "Request"),
      h(
        "div",
        { class: "control" },
        h("label", { for: (entity.id = uniqueId("entity")) }, "Entity"),
        ...withSuggestions(entity, entities),
        errors.entity,
      ),
      h(
        "div",
        { class: "control" },
        h("label", { for: (operation.id = uniqueId("operation")) }, "Operation"),
        ...withSuggestions(operation, operations),
        errors.operation,
      ),
      labelled("Locale", locale),
      labelled("Trigger", trigger),
    ),
    h(
      "fieldset",
      { class: "view-fields" },
      h("legend", {}, "View: where the user is (empty: every place)"),
      ...PLACE_LEVELS.map((level) =>
        h(
          "div",
          { class: "control" },
          h("label", { for: (view[level].id = uniqueId(level)) }, level[0]!.toUpperCase() + level.slice(1)),
          ...withSuggestions(view[level], placeIds(level)),
        ),
      ),
    ),
    ...JSON_MEMBERS.map((member) =>
      h(
        "div",
        { class: `control json-control json-${member}` },
        h(
          "label",
          { for: (editors[member].id = uniqueId(member)) },
          `${member} (JSON object${member === "data" ? "" : ", optional"})`,
        ),
        editors[member],
        errors[member],
      ),
    ),
    resolutions.element,
    serverCheck.tokenControl,
  );
  form.addEventListener("input", evaluate);
  form.addEventListener("change", evaluate);
  // Enter in a text field would submit the form and reload the page; everything is live already.
  form.addEventListener("submit", (event) => event.preventDefault());
  evaluate();
  return h(
    "section",
    { class: "try-it", id: "try-it", "aria-labelledby": "try-heading" },
    h("h2", { id: "try-heading" }, "Try it"),
    h(
      "p",
      {},
      "Each change is evaluated in this page with the client manifest: what you see is what the server computes for the client channel.",
    ),
    h(
      "div",
      { class: "try-layout" },
      form,
      h(
        "div",
        { class: "answers" },
        h(
          "section",
          { class: "client-result", "aria-labelledby": "client-result-heading" },
          h("h3", { id: "client-result-heading" }, "In this page (client manifest)"),
          clientOutput,
        ),
        serverCheck.element,
        why.element,
      ),
    ),
    curl.element,
  );
}
