/**
 * The rules explorer (`GET /explorer/`): the list of rulesets, then one ruleset's rules by place
 * and a form to try requests, evaluated in the page by the browser module served beside it.
 * The address's fragment says what is shown (`#/`, `#/rulesets/<id>`), so links and Back work.
 */
import { h } from "./dom.ts";
import { rulesetListView } from "./ruleset-list.ts";
import { rulesetPage } from "./ruleset-page.ts";

const RULESET_ROUTE = /^#\/rulesets\/([^/]+)$/;

/** Jump links inside a ruleset (`#try-it`) are not views; only `#/...` fragments are. */
function isViewFragment(hash: string): boolean {
  return hash === "" || hash === "#" || hash.startsWith("#/");
}

let shown = 0;

async function show(main: HTMLElement): Promise<void> {
  const showing = ++shown;
  const match = RULESET_ROUTE.exec(location.hash);
  main.setAttribute("aria-busy", "true");
  let view: HTMLElement;
  try {
    view = match ? await rulesetPage(decodeURIComponent(match[1]!)) : await rulesetListView();
  } catch (error) {
    view = h(
      "section",
      {},
      h("h1", { tabindex: "-1" }, "Something went wrong"),
      h("p", { class: "error", role: "alert" }, error instanceof Error ? error.message : String(error)),
      h("p", {}, h("a", { href: "#/" }, "Back to the list of rulesets")),
    );
  }
  // A later navigation wins over a slower earlier one.
  if (showing !== shown) return;
  main.replaceChildren(view);
  main.removeAttribute("aria-busy");
  document.title = `${match ? decodeURIComponent(match[1]!) : "Rulesets"} · Rules explorer`;
  // Keyboard and screen-reader users land on the new view's heading, not at the top of the old one.
  main.querySelector<HTMLElement>("h1")?.focus();
}

const main = document.getElementById("main")!;
addEventListener("hashchange", () => {
  if (isViewFragment(location.hash)) void show(main);
});
void show(main);
