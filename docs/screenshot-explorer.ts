/**
 * `make screenshot`: docs/explorer.png for the README, taken in headless Chromium from a real
 * server serving rules/: one ruleset, a request that denies, and the server's answer beside it.
 */
import { join } from "node:path";
import { openDevToolsPage } from "../test/support/devtools-page.ts";
import { PROJECT_ROOT } from "../test/support/run-cli.ts";
import { serverEnvironment, startServer, TOKEN } from "../test/support/server-process.ts";

const OUTPUT = join(PROJECT_ROOT, "docs", "explorer.png");

const server = await startServer(serverEnvironment(join(PROJECT_ROOT, "rules")));
const page = await openDevToolsPage(1280, 1000).catch(async (error: unknown) => {
  await server.kill();
  throw error;
});
try {
  await page.navigate(`${server.url}/explorer/#/rulesets/acme.payments.transfers`);
  await page.waitFor(`document.querySelector(".try-form")`, "the ruleset page");
  await page.typeInto(
    ".json-data textarea",
    JSON.stringify(
      {
        amount: 30000,
        currency: "EUR",
        reference: "Invoice 42",
        beneficiary: { country: "IR", iban: "AT611904300234573201" },
      },
      null,
      1,
    ),
  );
  await page.typeInto("input.token", TOKEN);
  await page.waitFor(`document.querySelector(".server-result .decision")`, "the server's answer");
  await page.evaluate(`document.activeElement.blur(); scrollTo(0, 0)`);
  await page.screenshot(OUTPUT);
  if (page.errors.length > 0) throw new Error(`the page reported:\n${page.errors.join("\n")}`);
  console.log(`wrote ${OUTPUT}`);
} finally {
  await page.close();
  await server.kill();
}
