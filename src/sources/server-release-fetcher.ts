import { readBoundedBody } from "../oci/bounded-body.ts";
import { sha256Digest } from "../workspace/files/content-digest.ts";
import type { PulledFile } from "./pulled-copies.ts";
import type { FetchedRelease, ReleaseFetcher } from "./release-fetcher.ts";
import { SourceError } from "./source-error.ts";

/** The header in which a rule-server sends a bundle's signature (a JWS) beside its bytes. */
export const SIGNATURE_HEADER = "Rule-Cascade-Signature";
/** The largest body taken from the other server: a list, or one bundle. */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

interface Listed {
  readonly id: string;
  readonly version: string;
  readonly checksum: string;
}

/** A bundle as last fetched, kept to ask for it again with If-None-Match. */
interface HeldBundle {
  readonly etag: string;
  readonly bytes: Uint8Array;
  readonly signature?: string;
}

export interface ServerFetcherOptions {
  readonly token?: string;
  /** Each request's deadline; default 30 s. */
  readonly timeoutMs?: number;
}

/**
 * Another rule-server as a source (RULES_SOURCE=https://…): its list of rulesets, then each
 * bundle. The release's digest is the SHA-256 of the list's ids, versions and checksums, so an
 * unchanged list costs one request; a changed one asks for each bundle with the ETag it was last
 * served with, and takes the bytes again only for those that changed. A bundle's signature, when
 * the other server holds one, comes in the `Rule-Cascade-Signature` header and is written beside it.
 */
export class ServerReleaseFetcher implements ReleaseFetcher {
  readonly kind = "server";
  private readonly base: string;
  private held = new Map<string, HeldBundle>();

  constructor(
    readonly ref: string,
    private readonly options: ServerFetcherOptions = {},
  ) {
    this.base = ref.replace(/\/+$/, "");
  }

  async fetch(known: string | undefined): Promise<FetchedRelease> {
    const list = await this.request("/rulesets");
    if (list.status !== 200) throw await this.refused("/rulesets", list);
    const listed = listedRulesets(await this.body(list, "/rulesets"));
    const digest = listDigest(listed);
    if (digest === known) return { unchanged: true, digest };
    const files: PulledFile[] = [];
    const held = new Map<string, HeldBundle>();
    for (const ruleset of listed) {
      const bundle = await this.bundle(ruleset.id);
      held.set(ruleset.id, bundle);
      const name = `${ruleset.id}.bundle.json`;
      files.push({ name, bytes: bundle.bytes });
      if (bundle.signature !== undefined)
        files.push({ name: `${name}.sig`, bytes: new TextEncoder().encode(`${bundle.signature}\n`) });
    }
    this.held = held;
    return { unchanged: false, digest, files };
  }

  private async bundle(id: string): Promise<HeldBundle> {
    const path = `/rulesets/${encodeURIComponent(id)}/bundle`;
    const before = this.held.get(id);
    const response = await this.request(path, before === undefined ? {} : { "If-None-Match": before.etag });
    if (response.status === 304 && before !== undefined) return before;
    if (response.status !== 200) throw await this.refused(path, response);
    const bytes = await this.body(response, path);
    const signature = response.headers.get(SIGNATURE_HEADER) ?? undefined;
    return { etag: response.headers.get("ETag") ?? "", bytes, ...(signature === undefined ? {} : { signature }) };
  }

  private async request(path: string, headers: Record<string, string> = {}): Promise<Response> {
    const { token, timeoutMs = 30_000 } = this.options;
    try {
      return await fetch(`${this.base}${path}`, {
        headers: {
          Accept: "application/json",
          ...(token === undefined ? {} : { Authorization: `Bearer ${token}` }),
          ...headers,
        },
        signal: AbortSignal.timeout(timeoutMs),
        redirect: "error",
      });
    } catch (error) {
      const timedOut = error instanceof Error && error.name === "TimeoutError";
      throw new SourceError(
        "SOURCE_PULL_FAILED",
        timedOut
          ? `${this.ref}${path} did not answer within ${timeoutMs} ms`
          : `${this.ref}${path} cannot be reached: ${error instanceof Error ? error.message : String(error)}`,
        timedOut ? "TIMEOUT" : "UNREACHABLE",
      );
    }
  }

  /** The body, refused past the limit without reading it whole (as registry answers are). */
  private body(response: Response, path: string): Promise<Uint8Array> {
    return readBoundedBody(
      response,
      MAX_BODY_BYTES,
      () => this.tooLarge(path),
      (_received, error) =>
        new SourceError("SOURCE_PULL_FAILED", `${this.ref}${path}: the answer broke off: ${String(error)}`),
    );
  }

  private tooLarge(path: string): SourceError {
    return new SourceError(
      "SOURCE_PULL_FAILED",
      `${this.ref}${path}: the answer is over ${MAX_BODY_BYTES} bytes`,
      "TOO_LARGE",
    );
  }

  private async refused(path: string, response: Response): Promise<SourceError> {
    const detail = await response.text().catch(() => "");
    let title = "";
    try {
      title = (JSON.parse(detail) as { title?: string }).title ?? "";
    } catch {}
    return new SourceError(
      "SOURCE_PULL_FAILED",
      `${this.ref}${path} answered ${response.status}${title === "" ? "" : ` (${title})`}`,
      String(response.status),
    );
  }
}

/** The list of rulesets, each with the members a release is told apart by. */
function listedRulesets(body: Uint8Array): Listed[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(body));
  } catch {
    throw new SourceError("SOURCE_PULL_FAILED", "the list of rulesets is not JSON");
  }
  const rulesets = (parsed as { rulesets?: unknown }).rulesets;
  if (!Array.isArray(rulesets)) throw new SourceError("SOURCE_PULL_FAILED", "the list of rulesets has no `rulesets`");
  return rulesets.map((entry) => {
    const { id, version, checksum } = (entry ?? {}) as Partial<Record<keyof Listed, unknown>>;
    if (typeof id !== "string" || typeof version !== "string" || typeof checksum !== "string")
      throw new SourceError("SOURCE_PULL_FAILED", "a listed ruleset lacks its id, version or checksum");
    return { id, version, checksum };
  });
}

function listDigest(listed: readonly Listed[]): string {
  const lines = listed.map(({ id, version, checksum }) => `${id} ${version} ${checksum}\n`).sort();
  return sha256Digest(lines.join(""));
}
