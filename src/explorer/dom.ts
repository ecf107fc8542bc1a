export type Child = Node | string | number | null | undefined | false;
type Attributes = Readonly<Record<string, string | boolean | undefined>>;

/**
 * An element with its attributes and children. Text is always set as text, never parsed as HTML:
 * rule titles and messages come from rule files, and a page must not run what a file says.
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: readonly (Child | readonly Child[])[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? "" : value);
  }
  append(element, children);
  return element;
}

function append(parent: Element, children: readonly (Child | readonly Child[])[]): void {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    parent.append(typeof child === "number" ? String(child) : child);
  }
}

let lastId = 0;

/** A document-unique id, to tie a label or a description to its control. */
export function uniqueId(prefix: string): string {
  return `${prefix}-${++lastId}`;
}

/** A labelled control: the label, the control and (for errors and hints) a description tied to it. */
export function labelled(
  text: string,
  control: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement,
  hint?: string,
): HTMLElement {
  control.id ||= uniqueId("control");
  const described = hint === undefined ? undefined : h("span", { class: "hint", id: uniqueId("hint") }, hint);
  if (described) control.setAttribute("aria-describedby", described.id);
  return h("div", { class: "control" }, h("label", { for: control.id }, text), control, described);
}

/** A `<select>` with an option for each value; the first is chosen unless `selected` is one of them. */
export function selectOf(values: readonly { value: string; label: string }[], selected?: string): HTMLSelectElement {
  const select = h("select", {}, ...values.map((option) => h("option", { value: option.value }, option.label)));
  if (selected !== undefined) select.value = selected;
  return select;
}

/** A list of suggestions for a text input (`<datalist>`), tied to it. */
export function withSuggestions(input: HTMLInputElement, values: readonly string[]): HTMLElement[] {
  const list = h("datalist", { id: uniqueId("suggestions") }, ...values.map((value) => h("option", { value })));
  input.setAttribute("list", list.id);
  return [input, list];
}

/** Pretty JSON for a `<pre>`. */
export function jsonText(value: unknown): string {
  return JSON.stringify(value, null, 2);
}
