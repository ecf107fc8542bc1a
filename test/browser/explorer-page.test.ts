import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { openDevToolsPage, type DevToolsPage } from "../support/devtools-page.ts";
import { PROJECT_ROOT } from "../support/run-cli.ts";
import { serverEnvironment, startServer, TOKEN, type ServerProcess } from "../support/server-process.ts";
import { temporaryDirectory } from "../support/temp-directory.ts";

/**
 * The rules explorer in a real headless Chromium against a real server process serving the
 * shipped examples (rules/): the list, one ruleset's rules by place, a request that denies
 * evaluated in the page, and with a token the server's answer beside it. The steps share one
 * page, in order, as a person would use it.
 */
let server: ServerProcess;
let page: DevToolsPage;
let screenshots: { path: string; remove: () => void };

beforeAll(async () => {
  screenshots = temporaryDirectory({});
  server = await startServer(serverEnvironment(join(PROJECT_ROOT, "rules")));
  page = await openDevToolsPage(1280, 900);
}, 60_000);

afterAll(async () => {
  await page?.close();
  await server?.kill();
  screenshots?.remove();
});

const text = (selector: string): string => `document.querySelector(${JSON.stringify(selector)})?.textContent ?? ""`;

test("/explorer redirects to the page, which lists the example rulesets and filters them by scope", async () => {
  await page.navigate(`${server.url}/explorer`);
  expect(await page.evaluate<string>("location.pathname")).toBe("/explorer/");
  const ids = await page.waitFor<string[]>(
    `document.querySelector(".ruleset-list") && [...document.querySelectorAll(".ruleset-list tbody tr")].map((row) => row.dataset.rulesetId)`,
    "the list of rulesets",
  );
  expect(ids).toEqual(["acme.customers.onboarding", "acme.payments", "acme.payments.transfers"]);
  const row = await page.evaluate<string[]>(
    `[...document.querySelector('tr[data-ruleset-id="acme.payments"]').cells].map((cell) => cell.textContent)`,
  );
  const listed = (await (await fetch(`${server.url}/rulesets`)).json()) as {
    rulesets: { id: string; checksum: string }[];
  };
  expect(row).toEqual([
    "acme.payments",
    "1.3.0",
    "Acme payment policy",
    "enterprise:acme / organization:payments",
    "active",
    listed.rulesets.find((entry) => entry.id === "acme.payments")!.checksum,
  ]);

  await page.evaluate(
    `(() => { const select = document.querySelector('select[name="scope"]'); select.value = "acme/payments"; select.dispatchEvent(new Event("change", { bubbles: true })); })()`,
  );
  await page.waitFor(`document.querySelectorAll(".ruleset-list tbody tr").length === 2`, "the list filtered by scope");
  expect(
    await page.evaluate<string[]>(
      `[...document.querySelectorAll(".ruleset-list tbody tr")].map((row) => row.dataset.rulesetId)`,
    ),
  ).toEqual(["acme.payments", "acme.payments.transfers"]);
}, 60_000);

test('table headers never break inside a word, at any width (a "Version" header once read "Versi on")', async () => {
  // A text's lines are its client rects: one rect, one line.
  const lines = (selector: string): string =>
    `[...document.querySelectorAll(${JSON.stringify(selector)})].map((cell) => { const range = document.createRange(); range.selectNodeContents(cell); return cell.textContent + ":" + range.getClientRects().length; })`;
  for (const width of [1280, 900, 700, 400]) {
    await page.setViewport(width, 900);
    await page.waitFor(`innerWidth === ${width}`, `a ${width} px viewport`);
    expect(await page.evaluate<string[]>(lines(".ruleset-list thead th"))).toEqual([
      "Id:1",
      "Version:1",
      "Title:1",
      "Scope:1",
      "Status:1",
      "Checksum:1",
    ]);
    // Short values keep their words whole too; only the checksum breaks anywhere.
    expect(
      await page.evaluate<string[]>(
        lines(
          '.ruleset-list tr[data-ruleset-id="acme.payments"] td:nth-child(2), .ruleset-list tr[data-ruleset-id="acme.payments"] td:nth-child(5)',
        ),
      ),
    ).toEqual(["1.3.0:1", "active:1"]);
    const version = await page.evaluate<{ width: number; scrollWidth: number; whiteSpace: string }>(
      `(() => { const th = [...document.querySelectorAll(".ruleset-list th")].find((cell) => cell.textContent === "Version"); return { width: th.clientWidth, scrollWidth: th.scrollWidth, whiteSpace: getComputedStyle(th).whiteSpace }; })()`,
    );
    expect(version.scrollWidth).toBeLessThanOrEqual(version.width);
    expect(version.whiteSpace).toBe("nowrap");
  }
  await page.setViewport(1280, 900);
  await page.waitFor(`innerWidth === 1280`, "the wide viewport again");
}, 60_000);

test("a ruleset shows its client rules by place, with kind, severity, fields and messages in every locale", async () => {
  await page.evaluate(`document.querySelector('a[href="#/rulesets/acme.payments.transfers"]').click()`);
  await page.waitFor(
    `document.querySelector('.ruleset-page[data-ruleset-id="acme.payments.transfers"]')`,
    "the ruleset page",
  );
  const limit = `section.place-page[data-place="transfers"] > section.place-screen[data-place="new-transfer"] > section.place-section[data-place="amount"] > ul > li[data-rule-id="transfer.amount.limit"]`;
  expect(await page.evaluate<boolean>(`document.querySelector(${JSON.stringify(limit)}) !== null`)).toBe(true);
  expect(await page.evaluate<string>(text(`${limit} .rule-title`))).toBe("Large transfers need a treasury sign-off");
  expect(await page.evaluate<string>(text(`${limit} .rule-badges`))).toContain("validationerror");
  expect(await page.evaluate<string>(text(`${limit} .rule-facts`))).toContain("Operationscreate, update");
  expect(await page.evaluate<string>(text(`${limit} .rule-facts`))).toContain("Fields/amount");
  const messages = await page.evaluate<string[][]>(
    `[...document.querySelectorAll(${JSON.stringify(`${limit} table.messages tr`)})].map((row) => [...row.cells].map((cell) => cell.textContent))`,
  );
  expect(messages).toEqual([
    ["en", "{amount} {currency} exceeds the single transfer limit of {limit} {currency}."],
    ["de", expect.stringContaining("überschreitet das Limit")],
  ]);
  // A component inside a section sits under that section; a type rule applies everywhere.
  expect(
    await page.evaluate<boolean>(
      `document.querySelector('section[data-place="beneficiary"] > section.place-component[data-place="beneficiary-form"] li[data-rule-id="transfer.bic.show"]') !== null`,
    ),
  ).toBe(true);
  expect(
    await page.evaluate<boolean>(
      `document.querySelector('section.place-everywhere li[data-rule-id="iban.format"]') !== null`,
    ),
  ).toBe(true);
  expect(await page.evaluate<string>(text(".definitions .params"))).toContain("singleTransferLimit25000");
  expect(await page.evaluate<string>(text(".definitions .functions"))).toContain(
    "transferFee(amount, urgent, crossBorder)",
  );
}, 60_000);

test("rule cards show their conditions as readable text, what compute rules assign, and how a finding may be resolved", async () => {
  const card = (id: string): string => `li[data-rule-id="${id}"] .rule-facts`;
  const facts = (id: string): Promise<Record<string, string>> =>
    page.evaluate(
      `Object.fromEntries([...document.querySelectorAll(${JSON.stringify(`${card(id)} dt`)})].map((term) => [term.textContent, term.nextElementSibling.textContent]))`,
    );
  expect(await facts("transfer.amount.limit")).toMatchObject({
    When: 'typeOf(data.amount) == "number"',
    Asserts: "data.amount <= params.singleTransferLimit",
    Resolution: "only treasury-manager or cfo may accept this risk, with a justification",
  });
  expect(await facts("transfer.reference.present")).toMatchObject({
    Asserts: '!empty(trim(coalesce(data.reference, "")))',
    Resolution: "it blocks until acknowledged",
  });
  expect(await facts("transfer.urgent.cut-off")).toMatchObject({
    When: "data.urgent == true && exists(data.executionDate)",
    Asserts: "daysUntil(data.executionDate) == 0",
  });
  expect(await facts("transfer.bic.show")).toMatchObject({ When: "isCrossBorder(data)" });
  expect(await page.evaluate<string>(text('li[data-rule-id="transfer.total.compute"] .rule-outcome'))).toBe(
    "Computes /totalDebit = data.amount + coalesce(data.fee, 0) (always)",
  );
  expect(await page.evaluate<string>(text('li[data-rule-id="transfer.currency.default"] .rule-outcome'))).toBe(
    "Computes /currency = params.defaultCurrency (only when the field is missing)",
  );
}, 60_000);

test("a request that denies is evaluated in the page as it is typed, each finding at its location", async () => {
  await page.typeInto(
    ".json-data textarea",
    '{ "amount": 30000, "currency": "EUR", "reference": "Invoice 42", "beneficiary": { "country": "IR" } }',
  );
  const limit = `.client-result li.finding[data-rule="transfer.amount.limit"]`;
  await page.waitFor(`document.querySelector(${JSON.stringify(limit)})`, "the limit finding");
  expect(await page.evaluate<string>(text(".client-result .decision"))).toBe("Decision: deny (a finding blocks)");
  expect(await page.evaluate<string>(text(`${limit} .message`))).toBe(
    "30000 EUR exceeds the single transfer limit of 25000 EUR.",
  );
  expect(await page.evaluate<string>(text(`${limit} .where`))).toBe("at transfers › new-transfer › amount · /amount");

  await page.evaluate(
    `(() => { const select = document.querySelector('select[name="locale"]'); select.value = "de"; select.dispatchEvent(new Event("change", { bubbles: true })); })()`,
  );
  await page.waitFor(`(${text(`${limit} .message`)}).includes("überschreitet")`, "the German message");

  await page.typeInto(".json-data textarea", '{ "amount": 30000, ');
  await page.waitFor(`!document.querySelector(".json-data .field-error").hidden`, "the error of malformed JSON");
  expect(await page.evaluate<string>(text(".json-data .field-error"))).toStartWith("data is not valid JSON: ");
  expect(
    await page.evaluate<string>(`document.querySelector(".json-data textarea").getAttribute("aria-invalid")`),
  ).toBe("true");
  await page.typeInto(".json-data textarea", "[1]");
  await page.waitFor(
    `(${text(".json-data .field-error")}).includes("must be a JSON object")`,
    "the error of a list for data",
  );

  await page.typeInto(
    ".json-data textarea",
    '{ "amount": 30000, "currency": "EUR", "reference": "Invoice 42", "beneficiary": { "country": "IR" } }',
  );
  await page.waitFor(
    `document.querySelector(".json-data .field-error").hidden && document.querySelector(${JSON.stringify(limit)})`,
    "the finding again",
  );
}, 60_000);

test("with a token the server's answer is shown beside the page's, its server-only rule marked", async () => {
  expect(await page.evaluate<string>(text(".server-result"))).toContain("Paste a token");
  await page.typeInto("input.token", TOKEN);
  const sanctioned = `.server-result li.finding[data-rule="transfer.beneficiary.sanctioned"]`;
  await page.waitFor(`document.querySelector(${JSON.stringify(sanctioned)})`, "the server's answer");
  expect(await page.evaluate<string>(text(`${sanctioned} .mark`))).toBe("server-only rule");
  expect(await page.evaluate<string>(text(`${sanctioned} .where`))).toBe(
    "at transfers › new-transfer › beneficiary · /beneficiary/country",
  );
  expect(await page.evaluate<string>(text(".server-result .comparison"))).toBe(
    "Same decision as the page: deny. Rules only the server holds found something: transfer.beneficiary.sanctioned.",
  );
  // Findings both compute are not marked; the page computed none of the sanctioned rule.
  expect(
    await page.evaluate<boolean>(
      `document.querySelector('.server-result li.finding[data-rule="transfer.amount.limit"] .mark') === null`,
    ),
  ).toBe(true);
  expect(
    await page.evaluate<boolean>(
      `document.querySelector('.client-result li.finding[data-rule="transfer.beneficiary.sanctioned"]') === null`,
    ),
  ).toBe(true);
  const evaluations = server.logs().filter((line) => line.path === "/evaluations");
  expect(evaluations.at(-1)).toMatchObject({ status: 200, ruleset: "acme.payments.transfers", decision: "deny" });

  // The token stays in memory: nothing stored, no cookie, not in the address or the curl text.
  expect(
    await page.evaluate<unknown>(
      `[localStorage.length, sessionStorage.length, document.cookie, location.href.includes(${JSON.stringify(TOKEN)})]`,
    ),
  ).toEqual([0, 0, "", false]);
  const curl = await page.evaluate<string>(text(".curl-text"));
  expect(curl).toStartWith(`curl -sS -X POST '${server.url}/evaluations'`);
  expect(curl).toContain('-H "Authorization: Bearer $TOKEN"');
  expect(curl).not.toContain(TOKEN);
  const body = JSON.parse(/--data-binary '(.*)'$/s.exec(curl)![1]!);
  expect(body).toMatchObject({
    ruleset: "acme.payments.transfers",
    version: "1.1.0",
    channel: "server",
    entity: "Transfer",
    operation: "create",
    locale: "de",
    data: { amount: 30000 },
  });

  await page.evaluate(`document.querySelector("button.copy-curl").click()`);
  await page.waitFor(text(".copy-status"), "the copy status");

  await page.screenshot(join(screenshots.path, "explorer.png"), true);
  expect([...readFileSync(join(screenshots.path, "explorer.png")).subarray(1, 4)]).toEqual([...Buffer.from("PNG")]);
}, 60_000);

test("the server panel never shows an answer to other input than the page's: malformed data is said, not compared", async () => {
  const state = `document.querySelector(".server-output").dataset.state`;
  expect(await page.evaluate<string>(state)).toBe("answered");
  await page.typeInto(".json-data textarea", '{ "amount": 30000, ');
  // At once, not after the pause: the answer to the previous input is gone.
  expect(await page.evaluate<string>(state)).toBe("invalid");
  expect(await page.evaluate<string>(text(".server-result"))).not.toContain("Same decision");
  expect(
    await page.evaluate<boolean>(
      `document.querySelector(".server-result .decision, .server-result .comparison") === null`,
    ),
  ).toBe(true);
  expect(await page.evaluate<string>(text(".server-output"))).toStartWith(
    "Not sent: the request in the form is not valid (data is not valid JSON: ",
  );
  const sent = server.logs().filter((line) => line.path === "/evaluations").length;
  await Bun.sleep(600);
  expect(server.logs().filter((line) => line.path === "/evaluations")).toHaveLength(sent);
  expect(await page.evaluate<string>(text(".why"))).toContain("Nothing to explain until the request can be evaluated.");

  // A valid input again: the old answer is not shown back, the server is asked for this one.
  await page.typeInto(
    ".json-data textarea",
    '{ "amount": 30000, "currency": "EUR", "reference": "Invoice 42", "beneficiary": { "country": "IR" } }',
  );
  expect(await page.evaluate<string>(state)).toBe("asking");
  expect(await page.evaluate<boolean>(`document.querySelector(".server-result .decision") === null`)).toBe(true);
  await page.waitFor(`${state} === "answered"`, "the server's answer to the new input");
  expect(await page.evaluate<string>(text(".server-result .comparison"))).toStartWith(
    "Same decision as the page: deny.",
  );
}, 60_000);

test("the Why view lists every client rule with its status and opens onto expression trees, the deciding leaves marked", async () => {
  const rule = (id: string): string => `.why li.why-rule[data-rule="${id}"]`;
  const ruleCount = await page.evaluate<number>(`document.querySelectorAll("li.rule").length`);
  expect(await page.evaluate<number>(`document.querySelectorAll(".why li.why-rule").length`)).toBe(ruleCount);
  expect(await page.evaluate<string>(text(".why .why-summary"))).toMatch(
    /^\d+ rules: \d+ fired, .*\d+ passed, \d+ when false, \d+ not selected\.$/,
  );
  expect(await page.evaluate<string>(text(".why .why-decision"))).toMatch(
    /^Decision deny: blocked by the findings? of transfer\.amount\.limit( and [\w.-]+)*\.$/,
  );
  const statuses = await page.evaluate<Record<string, string>>(
    `Object.fromEntries([...document.querySelectorAll(".why li.why-rule")].map((item) => [item.dataset.rule, item.dataset.status]))`,
  );
  expect(statuses).toMatchObject({
    "transfer.amount.limit": "fired",
    "transfer.amount.positive": "passed",
    "transfer.purpose-detail.required": "when-false",
    "transfer.update.locked-after-approval": "not-selected",
  });
  expect(await page.evaluate<string>(text(`${rule("transfer.amount.limit")} .why-words`))).toBe(
    "its assertion failed, so it raised finding ACME-PAY-005",
  );
  expect(await page.evaluate<string>(text(`${rule("transfer.update.locked-after-approval")} .why-words`))).toBe(
    "it runs on update, not on create",
  );
  // A false condition is said as the text rules are written in.
  expect(await page.evaluate<string>(text(`${rule("transfer.purpose-detail.required")} .why-words`))).toBe(
    'its condition, data.purpose == "other", is false, so it did not run',
  );
  // A per-item rule over a list the request does not have ran on no item: it does not claim its assertion holds.
  expect(await page.evaluate<string>(text(`${rule("transfer.invoice.number")} .why-words`))).toBe(
    "it ran on no item because data.invoices is missing",
  );
  // A rule that was not selected has no expressions to open.
  expect(
    await page.evaluate<boolean>(
      `document.querySelector(${JSON.stringify(`${rule("transfer.update.locked-after-approval")} details`)}) === null`,
    ),
  ).toBe(true);

  await page.evaluate(`document.querySelector(${JSON.stringify(`${rule("transfer.amount.limit")} summary`)}).click()`);
  const assert = `${rule("transfer.amount.limit")} .expr-node[data-pointer="/assert"]`;
  await page.waitFor(
    `document.querySelector(${JSON.stringify(assert)})?.checkVisibility()`,
    "the limit rule's assert tree",
  );
  expect(await page.evaluate<string>(text(`${assert} > .node-line`))).toBe(
    "data.amount <= params.singleTransferLimit→ falsedecided",
  );
  expect(
    await page.evaluate<string[]>(
      `[...document.querySelectorAll(${JSON.stringify(`${assert} > ul > li > .node-line`)})].map((line) => line.textContent)`,
    ),
  ).toEqual(["data.amount→ 30000", "params.singleTransferLimit→ 25000"]);
  expect(
    await page.evaluate<string[]>(
      `[...document.querySelectorAll(${JSON.stringify(`${rule("transfer.amount.limit")} .deciding`)})].map((node) => node.dataset.pointer)`,
    ),
  ).toEqual(["/assert"]);
  expect(
    await page.evaluate<string>(
      `getComputedStyle(document.querySelector(${JSON.stringify(`${assert} > .node-line`)})).backgroundColor`,
    ),
  ).not.toBe("rgba(0, 0, 0, 0)");
  expect(
    await page.evaluate<string>(text(`${rule("transfer.amount.limit")} .expr-node[data-pointer="/when"] > .node-line`)),
  ).toBe('typeOf(data.amount) == "number"→ true');

  // A false when: the leaf that made it false is marked; an argument a short-circuit skipped says so.
  await page.evaluate(
    `document.querySelector(${JSON.stringify(`${rule("transfer.urgent.cut-off")} summary`)}).click()`,
  );
  const urgent = rule("transfer.urgent.cut-off");
  expect(
    await page.evaluate<string[]>(
      `[...document.querySelectorAll(${JSON.stringify(`${urgent} .deciding`)})].map((node) => node.dataset.pointer + " " + node.querySelector(".node-line").textContent)`,
    ),
  ).toEqual(["/when/args/0 data.urgent == true→ falsedecided"]);
  expect(await page.evaluate<string>(text(`${urgent} .expr-node[data-pointer="/when/args/1"] > .node-line`))).toBe(
    "exists(data.executionDate)not evaluated",
  );

  // What a person opened stays open while they type.
  await page.typeInto(
    ".json-data textarea",
    '{ "amount": 26000, "currency": "EUR", "reference": "Invoice 42", "beneficiary": { "country": "IR" } }',
  );
  await page.waitFor(
    `(${text(`${rule("transfer.amount.limit")} .expr-node[data-pointer="/assert/args/0"]`)}).includes("26000")`,
    "the tree of the new input",
  );
  expect(
    await page.evaluate<boolean[]>(
      `[${JSON.stringify(rule("transfer.amount.limit"))}, ${JSON.stringify(urgent)}, ${JSON.stringify(rule("transfer.amount.positive"))}].map((selector) => document.querySelector(selector + " details").open)`,
    ),
  ).toEqual([true, true, false]);
  await page.typeInto(
    ".json-data textarea",
    '{ "amount": 30000, "currency": "EUR", "reference": "Invoice 42", "beneficiary": { "country": "IR" } }',
  );
  await page.waitFor(
    `(${text(`${rule("transfer.amount.limit")} .expr-node[data-pointer="/assert/args/0"]`)}).includes("30000")`,
    "the tree of the 30000 transfer",
  );
}, 60_000);

test("a misspelt entity or operation is said in the Why view, with the name it is closest to", async () => {
  await page.typeInto('input[name="entity"]', "Transfre");
  await page.waitFor(`document.querySelector(".why .unmatched")`, "the unmatched entity");
  expect(await page.evaluate<string>(text(".why .unmatched"))).toBe(
    "No rule of this ruleset targets the entity Transfre: did you mean Transfer?",
  );
  expect(
    await page.evaluate<string[]>(
      `[...document.querySelectorAll(".why .unmatched code")].map((name) => name.textContent)`,
    ),
  ).toEqual(["Transfre", "Transfer"]);
  await page.typeInto('input[name="entity"]', "Transfer");
  await page.typeInto('input[name="operation"]', "creat");
  await page.waitFor(
    `(${text(".why .unmatched")}) === "No rule of Transfer runs on the operation creat: did you mean create?"`,
    "the unmatched operation",
  );
  await page.typeInto('input[name="operation"]', "create");
  await page.waitFor(
    `document.querySelector(".why .unmatched") === null && document.querySelector('.client-result li.finding[data-rule="transfer.amount.limit"]')`,
    "the request as before",
  );
}, 60_000);

test("the resolutions editor builds the request's resolutions: a treasury manager accepting the risk with a justification lets the transfer through", async () => {
  const choice = `.resolution-choice[data-rule="transfer.amount.limit"][data-type="accept-risk"]`;
  expect(
    await page.evaluate<string[]>(
      `[...document.querySelectorAll(".resolution-choice")].map((row) => row.dataset.type + " " + row.dataset.rule)`,
    ),
  ).toEqual([
    "accept-risk transfer.amount.limit",
    "acknowledge transfer.reference.present",
    "acknowledge transfer.invoices.total",
  ]);
  expect(await page.evaluate<string>(text(".why .why-resolutions"))).toContain("None given");
  const fate = `.why .why-resolutions li.resolution[data-rule="transfer.amount.limit"]`;

  await page.evaluate(`document.querySelector(${JSON.stringify(`${choice} input[type="checkbox"]`)}).click()`);
  await page.waitFor(`document.querySelector(${JSON.stringify(fate)})`, "the resolution's fate");
  expect(await page.evaluate<string>(text(fate))).toBe(
    "not applied accept-risk of transfer.amount.limit: only treasury-manager or cfo may accept this risk, and the actor has none of these roles",
  );

  await page.typeInto(".json-actor textarea", '{ "id": "u-2001", "roles": ["treasury-manager"] }');
  await page.waitFor(
    `(${text(fate)}).endsWith("accepting this risk needs a justification")`,
    "the missing justification",
  );
  expect(await page.evaluate<string>(text(".client-result .decision"))).toBe("Decision: deny (a finding blocks)");

  await page.typeInto(`${choice} input[name="justification"]`, "Vehicle purchase approved by the board");
  await page.waitFor(`document.querySelector(".client-result .decision-allow")`, "the decision allow");
  expect(await page.evaluate<string>(text(fate))).toBe(
    "applied accept-risk of transfer.amount.limit: the finding is accepted and no longer blocks",
  );
  expect(await page.evaluate<string>(`document.querySelector(${JSON.stringify(fate)}).className`)).toContain("applied");
  expect(
    await page.evaluate<string>(text('.client-result li.finding[data-rule="transfer.amount.limit"] .finding-facts')),
  ).toContain("accepted");
  const body = JSON.parse(/--data-binary '(.*)'$/s.exec(await page.evaluate<string>(text(".curl-text")))![1]!);
  expect(body.resolutions).toEqual([
    { rule: "transfer.amount.limit", type: "accept-risk", justification: "Vehicle purchase approved by the board" },
  ]);
  // The server still refuses the embargoed destination, a rule the page does not hold.
  await page.waitFor(
    `document.querySelector(".server-output").dataset.state === "answered"`,
    "the server's answer with the resolution",
  );
  expect(await page.evaluate<string>(text(".server-result .comparison"))).toStartWith(
    "The server decides deny, the page allow.",
  );

  // Unticked, the resolution leaves the request; the decision is deny again.
  await page.evaluate(`document.querySelector(${JSON.stringify(`${choice} input[type="checkbox"]`)}).click()`);
  await page.waitFor(
    `document.querySelector(".client-result .decision-deny") && !(${text(".curl-text")}).includes("resolutions")`,
    "the request without the resolution",
  );
}, 60_000);

test("the page is usable with the keyboard and at 400 px, every control labelled, nothing refused by its policy", async () => {
  const unlabelled = await page.evaluate<string[]>(
    `[...document.querySelectorAll("input, select, textarea")].filter((control) => control.labels.length === 0 && !control.getAttribute("aria-label")).map((control) => control.outerHTML)`,
  );
  expect(unlabelled).toEqual([]);
  await page.evaluate(`document.querySelector('select[name="trigger"]').focus()`);
  await page.press("Tab");
  expect(await page.evaluate<string>(`document.activeElement.name`)).toBe("view-page");

  await page.setViewport(400, 800);
  await page.waitFor(`innerWidth === 400`, "the narrow viewport");
  const overflowing = `[...document.querySelectorAll("body *")].filter((element) => element.getBoundingClientRect().right > 400 && !element.closest(".table-scroll")).map((element) => element.outerHTML.slice(0, 80))`;
  expect(await page.evaluate<string[]>(overflowing)).toEqual([]);
  expect(await page.evaluate<number>("document.documentElement.scrollWidth")).toBeLessThanOrEqual(400);
  await page.screenshot(join(screenshots.path, "explorer-400.png"));
  // Inline script or style, or anything from elsewhere, would be reported here as a refusal.
  expect(page.errors).toEqual([]);
}, 60_000);
