import type { Channel } from "../../engine/bundle/channel.ts";
import type { LoadedRuleset } from "../../engine/bundle/loaded-ruleset.ts";
import { listAt, objectAt, stringAt } from "../../engine/value/json-access.ts";
import type { JsonObject, JsonValue } from "../../engine/value/json-value.ts";
import { CompressibleBody } from "../http/compressible-body.ts";

/**
 * One ruleset as the server serves it, built once per snapshot: the evaluator, the list entry,
 * and every response body that does not depend on the request (each serialized when first sent).
 */
export interface RulesetEntry {
  readonly id: string;
  readonly version: string;
  readonly checksum: string;
  readonly title?: string;
  readonly scope?: readonly { readonly level: string; readonly id: string }[];
  readonly status?: string;
}

/** What a ruleset's list entry takes from its source document: none for a ruleset read from a bundle. */
export type SourceListing = Required<Pick<RulesetEntry, "title" | "scope" | "status">>;

/** The listing members of a source document. */
export function sourceListing(document: JsonObject): SourceListing {
  const metadata = objectAt(document.metadata);
  return {
    title: stringAt(metadata.title),
    scope: listAt(document.scope).map((level) => ({
      level: stringAt(objectAt(level).level),
      id: stringAt(objectAt(level).id),
    })),
    status: typeof metadata.status === "string" ? metadata.status : "draft",
  };
}

export interface RuleBody {
  readonly body: CompressibleBody;
  /** Not in the client manifest: the token is required. */
  readonly serverOnly: boolean;
}

export interface ServedRuleset {
  readonly entry: RulesetEntry;
  /** What its source document said of it; undefined for a ruleset read from a bundle file. */
  readonly listing: SourceListing | undefined;
  readonly ruleset: LoadedRuleset;
  readonly manifestBodies: Readonly<Record<Channel, CompressibleBody>>;
  readonly bundleBody: CompressibleBody;
  /** A signed bundle: its JWS is sent beside it (`Rule-Cascade-Signature`) so another rule-server can verify it too. */
  readonly signed?: SignedBundle;
  readonly rules: ReadonlyMap<string, RuleBody>;
}

/** A bundle loaded with its signature: the file's text, which the signature's digest is of, and the JWS. */
export interface SignedBundle {
  readonly text: string;
  readonly jws: string;
}

const bytes = (value: JsonValue): CompressibleBody => CompressibleBody.ofJson(value);

/** `listing` is what a compiled ruleset's source says of it (sourceListing), undefined for one read from a bundle. */
export function serveRuleset(
  bundle: JsonObject,
  ruleset: LoadedRuleset,
  listing: SourceListing | undefined,
  signed?: SignedBundle,
): ServedRuleset {
  const server = ruleset.manifest("server");
  const client = ruleset.manifest("client");
  const clientRuleIds = new Set(listAt(client.rules).map((rule) => stringAt(objectAt(rule).id)));
  const rules = new Map<string, RuleBody>();
  for (const rule of listAt(server.rules)) {
    const id = stringAt(objectAt(rule).id);
    rules.set(id, { body: bytes(rule), serverOnly: !clientRuleIds.has(id) });
  }
  const entry: RulesetEntry = { id: ruleset.id, version: ruleset.version, checksum: ruleset.checksum };
  return {
    entry: { ...entry, ...listing },
    listing,
    ruleset,
    manifestBodies: { server: bytes(server), client: bytes(client) },
    bundleBody:
      signed === undefined ? bytes(bundle) : new CompressibleBody(() => new TextEncoder().encode(signed.text)),
    ...(signed === undefined ? {} : { signed }),
    rules,
  };
}
