import { localeFallbacks, VIEW_KEYS, type JsonObject, type JsonValue } from "../browser/rule-cascade.ts";
import type { RuleFacts } from "../engine/explanation/wording-context.ts";

/** A rule's place in the user interface, from the most general level to the most specific (the engine's view keys). */
export const PLACE_LEVELS = VIEW_KEYS;
export type PlaceLevel = (typeof PLACE_LEVELS)[number];

/**
 * What the page reads of a rule in a client manifest (SPECIFICATION.md, section 3): what the
 * explanation's wording reads of it, and what the rule cards show.
 */
export interface ManifestRule extends RuleFacts {
  readonly id: string;
  readonly kind: string;
  readonly title?: string;
  readonly target: {
    readonly entity?: string;
    readonly type?: string;
    readonly field?: string;
    readonly fields?: readonly string[];
  } & Partial<Record<PlaceLevel, string>>;
  readonly operations: readonly string[];
  readonly triggers?: readonly string[];
  readonly severity?: string;
  readonly forEach?: string;
  readonly when?: JsonValue;
  readonly assert?: JsonValue;
  readonly finding?: { readonly code: string; readonly message: string };
  /** `default` (the engine's default) assigns only a field that is missing or null; `always` assigns in any case. */
  readonly assign?: readonly { readonly field: string; readonly mode?: string; readonly value?: JsonValue }[];
  readonly effects?: readonly { readonly field: string; readonly set: JsonObject }[];
  /** A warning with `required` blocks until the request acknowledges it. */
  readonly acknowledgement?: string;
  /** An error the request may accept the risk of: by whom, and whether a justification is needed (`required`, the default, or `none`). */
  readonly acceptance?: {
    readonly allowed?: boolean;
    readonly roles?: readonly string[];
    readonly justification?: string;
  };
  readonly origin?: string;
}

/** What the page reads of a client manifest (`GET /rulesets/{id}/manifest`). */
export interface ClientManifest {
  readonly id: string;
  readonly version: string;
  readonly checksum: string;
  readonly defaultLocale?: string;
  readonly params?: Readonly<Record<string, JsonValue>>;
  readonly fieldTypes?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  readonly functions?: Readonly<Record<string, { readonly params: readonly string[]; readonly body: JsonValue }>>;
  readonly operators?: readonly string[] | Readonly<Record<string, JsonValue>>;
  readonly rules: readonly ManifestRule[];
  readonly messages?: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

/** The fields a rule is about: its target's pointers, under its `forEach` array when it has one. */
export function ruleFields(rule: ManifestRule): string[] {
  const fields = rule.target.fields
    ? [...rule.target.fields]
    : rule.target.field === undefined
      ? []
      : [rule.target.field];
  return rule.forEach === undefined ? fields : fields.map((field) => `${rule.forEach}/*${field}`);
}

/** The locales of the manifest's catalogs, the default first. */
export function manifestLocales(manifest: ClientManifest): string[] {
  const locales = Object.keys(manifest.messages ?? {});
  const first = manifest.defaultLocale;
  return first !== undefined && locales.includes(first)
    ? [first, ...locales.filter((locale) => locale !== first)]
    : locales;
}

/**
 * A message template in a locale, found as the engine finds it (SPECIFICATION.md, 8.1): the tag,
 * then the tag less its last subtag, and so on, then the default locale; `from` is the catalog
 * that held it. Undefined when no catalog does (the engine then shows the key).
 */
export function messageIn(
  manifest: ClientManifest,
  locale: string,
  key: string,
): { text: string; from: string } | undefined {
  const tags = localeFallbacks(locale);
  if (manifest.defaultLocale !== undefined) tags.push(manifest.defaultLocale);
  for (const tag of tags) {
    const text = manifest.messages?.[tag]?.[key];
    if (text !== undefined) return { text, from: tag };
  }
  return undefined;
}

/** A resolution the request can give for a rule's finding (`resolutions` of POST /evaluations). */
export type ResolutionType = "acknowledge" | "accept-risk";

export interface ResolvableRule {
  readonly rule: ManifestRule;
  readonly type: ResolutionType;
}

/**
 * The resolutions a request may try, rule by rule in manifest order: `acknowledge` for a validation
 * rule whose acknowledgement is required, `accept-risk` for one whose acceptance is allowed.
 */
export function resolvableRules(manifest: ClientManifest): ResolvableRule[] {
  const resolvable: ResolvableRule[] = [];
  for (const rule of manifest.rules) {
    if (rule.kind !== "validation") continue;
    if (rule.acknowledgement === "required") resolvable.push({ rule, type: "acknowledge" });
    if (rule.acceptance?.allowed === true) resolvable.push({ rule, type: "accept-risk" });
  }
  return resolvable;
}
