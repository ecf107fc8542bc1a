import type { JsonObject, JsonValue } from "../value/json-value.ts";
import { renderText } from "../value/rendered-text.ts";
import { generatedFiller, type MessageFiller, type TemplatePart } from "./generated-message.ts";
import { localeFallbacks } from "./locale-fallbacks.ts";

/**
 * Message catalogs of a manifest (specification 8.1), indexed once. A request's locale is looked
 * up from most to least specific (`fr-CA-x-a`, `fr-CA-x`, `fr-CA`, `fr`), then in the default
 * locale, then the key itself is the message. Tags compare exactly, case included.
 */

/** `{name}` in a template (letters, digits, `_`); an unknown name stays as written. */
export const PLACEHOLDER = /\{([A-Za-z0-9_]+)\}/g;

/** A template split once into literal text and placeholders. */
export class MessageTemplate {
  private readonly parts: readonly TemplatePart[];
  /** Made on first use with code generation (a catalog holds more templates than findings show); null when refused. */
  private generated: MessageFiller | null | undefined;

  constructor(
    readonly text: string,
    private readonly codeGeneration = false,
  ) {
    const parts: TemplatePart[] = [];
    let last = 0;
    for (const match of text.matchAll(PLACEHOLDER)) {
      if (match.index > last) parts.push(text.slice(last, match.index));
      parts.push({ arg: match[1]! });
      last = match.index + match[0].length;
    }
    if (last < text.length) parts.push(text.slice(last));
    this.parts = parts;
  }

  fill(args: JsonObject): string {
    if (this.codeGeneration) {
      this.generated ??= generatedFiller(this.parts) ?? null;
      if (this.generated !== null) return this.generated(args);
    }
    let message = "";
    for (const part of this.parts) {
      if (typeof part === "string") message += part;
      else message += Object.hasOwn(args, part.arg) ? renderText(args[part.arg]!) : `{${part.arg}}`;
    }
    return message;
  }
}

type Catalog = ReadonlyMap<string, MessageTemplate>;

/** Distinct locales remembered per catalog; a request cannot grow memory past this. */
const MAX_REMEMBERED_LOCALES = 256;

export class MessageCatalogs {
  private readonly catalogs = new Map<string, Catalog>();
  private readonly longestTag: number;
  private readonly chains = new Map<string, readonly Catalog[]>();

  constructor(
    messages: JsonValue | undefined,
    private readonly defaultLocale: string,
    codeGeneration = false,
  ) {
    if (typeof messages === "object" && messages !== null && !Array.isArray(messages)) {
      for (const [locale, entries] of Object.entries(messages)) {
        if (typeof entries !== "object" || entries === null || Array.isArray(entries)) continue;
        const catalog = new Map<string, MessageTemplate>();
        for (const [key, template] of Object.entries(entries))
          if (typeof template === "string") catalog.set(key, new MessageTemplate(template, codeGeneration));
        this.catalogs.set(locale, catalog);
      }
    }
    this.longestTag = Math.max(0, ...[...this.catalogs.keys()].map((tag) => tag.length));
  }

  /** The catalogs to consult for a locale, most specific first. */
  chainFor(locale: string | undefined): readonly Catalog[] {
    const wanted = locale ?? "";
    const known = this.chains.get(wanted);
    if (known) return known;
    const chain: Catalog[] = [];
    const add = (tag: string): void => {
      const catalog = this.catalogs.get(tag);
      if (catalog) chain.push(catalog);
    };
    // A tag longer than every catalog's cannot name one, so a long locale costs no more than a short one.
    for (const tag of localeFallbacks(wanted, this.longestTag)) add(tag);
    add(this.defaultLocale);
    if (this.chains.size < MAX_REMEMBERED_LOCALES) this.chains.set(wanted, chain);
    return chain;
  }

  /** The message for a key in a chain of catalogs, with its placeholders filled. */
  static message(chain: readonly Catalog[], key: string, args: JsonObject): string {
    for (const catalog of chain) {
      const template = catalog.get(key);
      if (template) return template.fill(args);
    }
    // With no template anywhere the key itself is the message, placeholders and all.
    return new MessageTemplate(key).fill(args);
  }
}
