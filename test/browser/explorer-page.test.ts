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
  const ids = await page.waitFor<string[]>(`document.querySelector(".ruleset-list") && [...document.querySelectorAll(".ruleset-list tbody tr")].map((row) => row.dataset.rulesetId)`, "the list of rulesets");
  expect(ids).toEqual(["acme.customers.onboarding", "acme.payments", "acme.payments.transfers"]);
  const row = await page.evaluate<string[]>(`[...document.querySelector('tr[data-ruleset-id="acme.payments"]').cells].map((cell) => cell.textContent)`);
  const listed = (await (await fetch(`${server.url}/rulesets`)).json()) as { rulesets: { id: string; checksum: string }[] };
  expect(row).toEqual(["acme.payments", "1.3.0", "Acme payment policy", "enterprise:acme / organization:payments", "active", listed.rulesets.find((entry) => entry.id === "acme.payments")!.checksum]);

  await page.evaluate(`(() => { const select = document.querySelector('select[name="scope"]'); select.value = "acme/payments"; select.dispatchEvent(new Event("change", { bubbles: true })); })()`);
  await page.waitFor(`document.querySelectorAll(".ruleset-list tbody tr").length === 2`, "the list filtered by scope");
  expect(await page.evaluate<string[]>(`[...document.querySelectorAll(".ruleset-list tbody tr")].map((row) => row.dataset.rulesetId)`)).toEqual(["acme.payments", "acme.payments.transfers"]);
}, 60_000);

test("a ruleset shows its client rules by place, with kind, severity, fields and messages in every locale", async () => {
  await page.evaluate(`document.querySelector('a[href="#/rulesets/acme.payments.transfers"]').click()`);
  await page.waitFor(`document.querySelector('.ruleset-page[data-ruleset-id="acme.payments.transfers"]')`, "the ruleset page");
  const limit = `section.place-page[data-place="transfers"] > section.place-screen[data-place="new-transfer"] > section.place-section[data-place="amount"] > ul > li[data-rule-id="transfer.amount.limit"]`;
  expect(await page.evaluate<boolean>(`document.querySelector(${JSON.stringify(limit)}) !== null`)).toBe(true);
  expect(await page.evaluate<string>(text(`${limit} .rule-title`))).toBe("Large transfers need a treasury sign-off");
  expect(await page.evaluate<string>(text(`${limit} .rule-badges`))).toContain("validationerror");
  expect(await page.evaluate<string>(text(`${limit} .rule-facts`))).toContain("Operationscreate, update");
  expect(await page.evaluate<string>(text(`${limit} .rule-facts`))).toContain("Fields/amount");
  const messages = await page.evaluate<string[][]>(`[...document.querySelectorAll(${JSON.stringify(`${limit} table.messages tr`)})].map((row) => [...row.cells].map((cell) => cell.textContent))`);
  expect(messages).toEqual([
    ["en", "{amount} {currency} exceeds the single transfer limit of {limit} {currency}."],
    ["de", expect.stringContaining("überschreitet das Limit")],
  ]);
  // A component inside a section sits under that section; a type rule applies everywhere.
  expect(await page.evaluate<boolean>(`document.querySelector('section[data-place="beneficiary"] > section.place-component[data-place="beneficiary-form"] li[data-rule-id="transfer.bic.show"]') !== null`)).toBe(true);
  expect(await page.evaluate<boolean>(`document.querySelector('section.place-everywhere li[data-rule-id="iban.format"]') !== null`)).toBe(true);
  expect(await page.evaluate<string>(text(".definitions .params"))).toContain("singleTransferLimit25000");
  expect(await page.evaluate<string>(text(".definitions .functions"))).toContain("transferFee(amount, urgent, crossBorder)");
}, 60_000);

test("a request that denies is evaluated in the page as it is typed, each finding at its location", async () => {
  await page.typeInto(".json-data textarea", '{ "amount": 30000, "currency": "EUR", "reference": "Invoice 42", "beneficiary": { "country": "IR" } }');
  const limit = `.client-result li.finding[data-rule="transfer.amount.limit"]`;
  await page.waitFor(`document.querySelector(${JSON.stringify(limit)})`, "the limit finding");
  expect(await page.evaluate<string>(text(".client-result .decision"))).toBe("Decision: deny (a finding blocks)");
  expect(await page.evaluate<string>(text(`${limit} .message`))).toBe("30000 EUR exceeds the single transfer limit of 25000 EUR.");
  expect(await page.evaluate<string>(text(`${limit} .where`))).toBe("at transfers › new-transfer › amount · /amount");

  await page.evaluate(`(() => { const select = document.querySelector('select[name="locale"]'); select.value = "de"; select.dispatchEvent(new Event("change", { bubbles: true })); })()`);
  await page.waitFor(`(${text(`${limit} .message`)}).includes("überschreitet")`, "the German message");

  await page.typeInto(".json-data textarea", '{ "amount": 30000, ');
  await page.waitFor(`!document.querySelector(".json-data .field-error").hidden`, "the error of malformed JSON");
  expect(await page.evaluate<string>(text(".json-data .field-error"))).toStartWith("data is not valid JSON: ");
  expect(await page.evaluate<string>(`document.querySelector(".json-data textarea").getAttribute("aria-invalid")`)).toBe("true");
  await page.typeInto(".json-data textarea", "[1]");
  await page.waitFor(`(${text(".json-data .field-error")}).includes("must be a JSON object")`, "the error of a list for data");

  await page.typeInto(".json-data textarea", '{ "amount": 30000, "currency": "EUR", "reference": "Invoice 42", "beneficiary": { "country": "IR" } }');
  await page.waitFor(`document.querySelector(".json-data .field-error").hidden && document.querySelector(${JSON.stringify(limit)})`, "the finding again");
}, 60_000);

test("with a token the server's answer is shown beside the page's, its server-only rule marked", async () => {
  expect(await page.evaluate<string>(text(".server-result"))).toContain("Paste a token");
  await page.typeInto("input.token", TOKEN);
  const sanctioned = `.server-result li.finding[data-rule="transfer.beneficiary.sanctioned"]`;
  await page.waitFor(`document.querySelector(${JSON.stringify(sanctioned)})`, "the server's answer");
  expect(await page.evaluate<string>(text(`${sanctioned} .mark`))).toBe("server-only rule");
  expect(await page.evaluate<string>(text(`${sanctioned} .where`))).toBe("at transfers › new-transfer › beneficiary · /beneficiary/country");
  expect(await page.evaluate<string>(text(".server-result .comparison"))).toBe("Same decision as the page: deny. Rules only the server holds found something: transfer.beneficiary.sanctioned.");
  // Findings both compute are not marked; the page computed none of the sanctioned rule.
  expect(await page.evaluate<boolean>(`document.querySelector('.server-result li.finding[data-rule="transfer.amount.limit"] .mark') === null`)).toBe(true);
  expect(await page.evaluate<boolean>(`document.querySelector('.client-result li.finding[data-rule="transfer.beneficiary.sanctioned"]') === null`)).toBe(true);
  const evaluations = server.logs().filter((line) => line.path === "/evaluations");
  expect(evaluations.at(-1)).toMatchObject({ status: 200, ruleset: "acme.payments.transfers", decision: "deny" });

  // The token stays in memory: nothing stored, no cookie, not in the address or the curl text.
  expect(await page.evaluate<unknown>(`[localStorage.length, sessionStorage.length, document.cookie, location.href.includes(${JSON.stringify(TOKEN)})]`)).toEqual([0, 0, "", false]);
  const curl = await page.evaluate<string>(text(".curl-text"));
  expect(curl).toStartWith(`curl -sS -X POST '${server.url}/evaluations'`);
  expect(curl).toContain('-H "Authorization: Bearer $TOKEN"');
  expect(curl).not.toContain(TOKEN);
  const body = JSON.parse(/--data-binary '(.*)'$/s.exec(curl)![1]!);
  expect(body).toMatchObject({ ruleset: "acme.payments.transfers", version: "1.1.0", channel: "server", entity: "Transfer", operation: "create", locale: "de", data: { amount: 30000 } });

  await page.evaluate(`document.querySelector("button.copy-curl").click()`);
  await page.waitFor(text(".copy-status"), "the copy status");

  await page.screenshot(join(screenshots.path, "explorer.png"), true);
  expect([...readFileSync(join(screenshots.path, "explorer.png")).subarray(1, 4)]).toEqual([...Buffer.from("PNG")]);
}, 60_000);

test("the page is usable with the keyboard and at 400 px, every control labelled, nothing refused by its policy", async () => {
  const unlabelled = await page.evaluate<string[]>(`[...document.querySelectorAll("input, select, textarea")].filter((control) => control.labels.length === 0 && !control.getAttribute("aria-label")).map((control) => control.outerHTML)`);
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
