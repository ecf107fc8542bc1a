import type { JsonObject } from "../browser/rule-cascade.ts";
import { curlCommand } from "./curl-command.ts";
import { h } from "./dom.ts";
import { endpoint } from "./server-address.ts";

/**
 * The request as a curl command: shown as text (which works without clipboard permission) and
 * copied by a button where the browser allows it.
 */
export class CurlView {
  readonly element: HTMLElement;
  readonly #text: HTMLElement;
  readonly #status: HTMLElement;

  constructor() {
    this.#text = h("pre", { class: "curl-text", tabindex: "0", "aria-label": "curl command" });
    this.#status = h("span", { class: "copy-status", role: "status" });
    const copy = h("button", { type: "button", class: "copy-curl" }, "Copy as curl");
    copy.addEventListener("click", () => void this.#copy());
    this.element = h(
      "section",
      { class: "curl", "aria-labelledby": "curl-heading" },
      h("h3", { id: "curl-heading" }, "The server check as a curl command"),
      h("p", { class: "hint" }, "It reads the token from $TOKEN: the token you paste is never written into it."),
      h("div", { class: "copy-row" }, copy, this.#status),
      this.#text,
    );
  }

  show(body: JsonObject | undefined): void {
    this.#text.textContent =
      body === undefined ? "(fix the request first)" : curlCommand(endpoint("evaluations"), body);
    this.#status.textContent = "";
  }

  async #copy(): Promise<void> {
    try {
      await navigator.clipboard.writeText(this.#text.textContent ?? "");
      this.#status.textContent = "Copied.";
    } catch {
      // No clipboard permission (or not a secure context): select the text for the user to copy.
      getSelection()?.selectAllChildren(this.#text);
      this.#status.textContent = "The browser refused the clipboard: the text is selected, copy it with Ctrl+C.";
    }
  }
}
