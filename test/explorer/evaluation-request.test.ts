import { expect, test } from "bun:test";
import { buildRequest, type RequestForm } from "../../src/explorer/evaluation-request.ts";

const form = (
  changes: Partial<Omit<RequestForm, "json">> & { json?: Partial<RequestForm["json"]> } = {},
): RequestForm => ({
  entity: "Transfer",
  operation: "create",
  locale: "",
  trigger: "",
  view: { page: "", screen: "", section: "", component: "" },
  resolutions: [],
  ...changes,
  json: { data: "{}", original: "", actor: "", ctx: "", ...changes.json },
});

test("the request holds what was typed; empty members are left out", () => {
  expect(
    buildRequest(
      form({
        locale: "de",
        trigger: "submit",
        view: { page: "transfers", screen: "", section: "amount", component: "" },
        json: { data: '{"amount": 1}', ctx: '{"now": "2026-01-01T00:00:00Z"}' },
      }),
    ),
  ).toEqual({
    ok: true,
    request: {
      entity: "Transfer",
      operation: "create",
      data: { amount: 1 },
      ctx: { now: "2026-01-01T00:00:00Z" },
      locale: "de",
      trigger: "submit",
      view: { page: "transfers", section: "amount" },
    },
  });
});

test("malformed JSON says which member and where; a member that is not an object and a missing entity are problems too, all at once", () => {
  const built = buildRequest(form({ entity: " ", json: { data: '{\n  "amount": 1,\n}', actor: "[1]" } }));
  expect(built.ok).toBe(false);
  if (built.ok) return;
  expect(built.problems.map((problem) => [problem.code, problem.member])).toEqual([
    ["MEMBER_MISSING", "entity"],
    ["JSON_MALFORMED", "data"],
    ["JSON_NOT_OBJECT", "actor"],
  ]);
  expect(built.problems[1]!.message).toStartWith("data is not valid JSON: ");
  expect(built.problems[2]!.message).toBe("actor must be a JSON object ({ ... }), not a list");
});

test("ticked resolutions become the request's resolutions, a justification only when one was typed", () => {
  const built = buildRequest(
    form({
      resolutions: [
        { rule: "transfer.reference.present", type: "acknowledge", justification: "" },
        { rule: "transfer.amount.limit", type: "accept-risk", justification: "  Board decision 2026-02-26 " },
        { rule: "transfer.other.limit", type: "accept-risk", justification: " " },
      ],
    }),
  );
  expect(built.ok && built.request.resolutions).toEqual([
    { rule: "transfer.reference.present", type: "acknowledge" },
    { rule: "transfer.amount.limit", type: "accept-risk", justification: "Board decision 2026-02-26" },
    { rule: "transfer.other.limit", type: "accept-risk" },
  ]);
  expect(buildRequest(form()).ok && "resolutions" in (buildRequest(form()) as { request: object }).request).toBe(false);
});
