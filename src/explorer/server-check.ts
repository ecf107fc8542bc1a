import { FetchRulesetError, type EvaluationResult, type JsonObject } from "../browser/rule-cascade.ts";
import { h, labelled } from "./dom.ts";
import { compareResults } from "./result-differences.ts";
import { resultView, type ResultMarks } from "./result-view.ts";
import { endpoint } from "./server-address.ts";

/** Typing settles before the server is asked: one request per pause, not one per key. */
const PAUSE_MS = 250;

/**
 * The same request sent to `POST /evaluations` on the server channel, shown beside the page's
 * answer with the differences marked. The token lives in this object and its input only: never
 * in storage, a cookie or the address, so it is gone when the tab closes.
 */
export class ServerCheck {
  readonly tokenControl: HTMLElement;
  readonly element: HTMLElement;
  readonly #token: HTMLInputElement;
  readonly #output: HTMLElement;
  #pending: AbortController | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** The page's request (with its answer in the page), or why the page holds none that can be sent. */
  #last:
    | { body: JsonObject; client: EvaluationResult | undefined; marks: ResultMarks }
    | { invalid: string }
    | undefined;
  /** The token and body of the answer shown (or being asked for): the same request is not sent twice. */
  #asked = "";

  constructor(private readonly clientRuleIds: ReadonlySet<string>) {
    this.#token = h("input", {
      type: "password",
      name: "token",
      autocomplete: "off",
      spellcheck: "false",
      class: "token",
    });
    this.tokenControl = labelled(
      "Token for a server check",
      this.#token,
      "Kept in this tab's memory only, never stored. With it, each request is also sent to POST /evaluations on the server channel.",
    );
    this.#output = h("div", { class: "server-output", "aria-live": "polite" });
    this.#say("idle", h("p", { class: "none" }, "Paste a token to compare with the server's answer."));
    this.element = h(
      "section",
      { class: "server-result", "aria-labelledby": "server-result-heading" },
      h("h3", { id: "server-result-heading" }, "On the server (server channel)"),
      this.#output,
    );
    this.#token.addEventListener("input", () => this.#schedule());
  }

  /** The request changed: ask the server again (after a pause) when there is a token. */
  update(body: JsonObject, client: EvaluationResult | undefined, marks: ResultMarks): void {
    this.#last = { body, client, marks };
    this.#schedule();
  }

  /**
   * The form holds no request that can be sent (malformed JSON, a missing entity): the answer to an
   * earlier input is taken away at once, never compared with the page's, and nothing is sent.
   */
  invalid(reason: string): void {
    this.#last = { invalid: reason };
    this.#schedule();
  }

  /** What the panel shows, and its state for tests and styles: idle, invalid, asking, answered or failed. */
  #say(state: "idle" | "invalid" | "asking" | "answered" | "failed", view: HTMLElement): void {
    this.#output.dataset.state = state;
    this.#output.replaceChildren(view);
  }

  #schedule(): void {
    const last = this.#last;
    const asking = JSON.stringify([
      this.#token.value.trim(),
      last === undefined ? null : "invalid" in last ? { invalid: last.invalid } : last.body,
    ]);
    if (asking === this.#asked) return;
    this.#asked = asking;
    clearTimeout(this.#timer);
    this.#pending?.abort();
    if (this.#token.value.trim() === "") {
      this.#say("idle", h("p", { class: "none" }, "Paste a token to compare with the server's answer."));
      return;
    }
    if (last !== undefined && "invalid" in last) {
      this.#say(
        "invalid",
        h(
          "p",
          { class: "stale" },
          "Not sent: the request in the form is not valid (",
          last.invalid,
          "). Fix it to compare with the server's answer.",
        ),
      );
      return;
    }
    this.#say("asking", h("p", { class: "none" }, "Asking the server…"));
    this.#timer = setTimeout(() => void this.#check(), PAUSE_MS);
  }

  async #check(): Promise<void> {
    const last = this.#last;
    if (last === undefined || "invalid" in last) return;
    const controller = (this.#pending = new AbortController());
    let view: HTMLElement;
    let state: "answered" | "failed" = "answered";
    try {
      const response = await fetch(endpoint("evaluations"), {
        method: "POST",
        headers: {
          Authorization: `Bearer ${this.#token.value.trim()}`,
          "Content-Type": "application/json",
          Accept: "application/json",
        },
        body: JSON.stringify(last.body),
        signal: controller.signal,
        credentials: "omit",
      });
      if (!response.ok) throw await FetchRulesetError.answered("POST /evaluations", response);
      view = this.#compared(last.client, (await response.json()) as EvaluationResult, last.marks);
    } catch (error) {
      if (controller.signal.aborted) return;
      const message = error instanceof Error ? error.message : String(error);
      state = "failed";
      view = h(
        "p",
        { class: "error", role: "alert" },
        message.includes("401") ? `${message} (is the token right?)` : message,
      );
    }
    if (!controller.signal.aborted) this.#say(state, view);
  }

  #compared(client: EvaluationResult | undefined, server: EvaluationResult, marks: ResultMarks): HTMLElement {
    if (client === undefined)
      return h(
        "div",
        {},
        h("p", { class: "comparison" }, "The page could not evaluate this request: nothing to compare."),
        resultView(server, marks),
      );
    const differences = compareResults(client, server, this.clientRuleIds);
    const notes: string[] = [
      differences.sameDecision
        ? `Same decision as the page: ${server.decision}.`
        : `The server decides ${server.decision}, the page ${client.decision}.`,
    ];
    if (differences.serverOnlyRules.size > 0)
      notes.push(`Rules only the server holds found something: ${[...differences.serverOnlyRules].join(", ")}.`);
    const otherwise =
      differences.serverOnlyFindings.size -
      [...differences.serverOnlyFindings].filter((finding) => differences.serverOnlyRules.has(finding.rule)).length;
    if (otherwise > 0) notes.push(`${otherwise} finding(s) of client rules differ on the server.`);
    if (differences.clientOnlyFindings.size > 0)
      notes.push(`${differences.clientOnlyFindings.size} finding(s) of the page are not in the server's answer.`);
    return h(
      "div",
      {},
      h("p", { class: `comparison${differences.sameDecision ? "" : " differs"}` }, notes.join(" ")),
      resultView(server, {
        ...marks,
        markedFindings: differences.serverOnlyFindings,
        markLabel: "server only",
        serverOnlyRules: differences.serverOnlyRules,
      }),
    );
  }
}
